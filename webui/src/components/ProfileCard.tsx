import { memo } from 'preact/compat';
import { Link } from 'react-router-dom';
import type { Profile } from '../api/types';
import { localName, useTranslation } from '../i18n';
import { Stars } from './Stars';
import { OpenBadge } from './OpenBadge';
import { formatDistance } from '../lib/format';
import { currentStatus, nextChangeOf } from '../lib/hours';
import { localDigits } from '../lib/digits';
import { groupPrice } from '../lib/price';
import { Icon } from './Icon';
import { TradePicture } from './TradePicture';
import { SaveButton } from './SaveButton';
import { VerifiedBadge } from './VerifiedBadge';

/** The lowest price of a profile's services (0 for a free one), or undefined with none priced. */
export function priceFrom(p: Profile): number | undefined {
  const prices = (p.services ?? []).map((s) => s.price).filter((n) => typeof n === 'number' && n >= 0);
  return prices.length ? Math.min(...prices) : undefined;
}

/**
 * A search result: picture, name, field, city, score, open-now, price from and distance. The name
 * is an h3 under a section's h2; `level={2}` where the cards come right under the page's h1 (search).
 * Memoised: a list drawn a few cards at a time (Progressive) does not draw its earlier cards again.
 */
export const ProfileCard = memo(function ProfileCard({ p, compact, level = 3 }: { p: Profile; compact?: boolean; level?: 2 | 3 }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  // The server's status, which knows the holidays and the special days; the device's clock only
  // says whether the answer is still current (see currentStatus).
  const status = currentStatus(p);
  const change = status ? nextChangeOf(p.next_change) : undefined;
  const next = change && (change.kind === 'until') === (status === 'Open' || status === 'Boarding') ? change : undefined;
  const from = priceFrom(p);
  const nextText = next
    ? next.kind === 'until'
      ? t('hours.until', { time: localDigits(next.time, lang) })
      : next.day
        ? t('hours.opensOn', { day: t(`week.${next.day}`), time: localDigits(next.time, lang) })
        : t('hours.opensAt', { time: localDigits(next.time, lang) })
    : undefined;
  const Name = level === 2 ? 'h2' : 'h3';
  return (
    <article class={`pcard card ${compact ? 'pcard-compact' : ''}`}>
      <Link to={`/profile/${encodeURIComponent(p.slug)}`} class="pcard-link">
        <TradePicture p={p} class="pcard-img" size={96} />
        <div class="pcard-body">
          <Name class="pcard-name" dir="auto">
            {p.profile_name}
          </Name>
          <p class="pcard-field muted small">
            {localName(p.range_worker, lang)}
            {p.city && (
              <>
                <span aria-hidden="true"> · </span>
                <Icon name="pin" size={14} class="inline-icon" />
                {localName(p.city, lang)}
              </>
            )}
          </p>
          <div class="pcard-meta">
            {p.verified && <VerifiedBadge />}
            <Stars score={p.score} count={p.count_scorer} size={14} />
            {status && <OpenBadge status={status} />}
            {nextText && <span class="muted small pcard-next">{nextText}</span>}
            {from !== undefined && (
              <span class="small pcard-price">{from > 0 ? t('price.from', { price: groupPrice(from, lang) }) : t('price.fromFree')}</span>
            )}
            {typeof p.distance === 'number' && (
              <span class="chip pcard-distance">{formatDistance(p.distance, lang, { m: t('units.m'), km: t('units.km') })}</span>
            )}
          </div>
        </div>
      </Link>
      <SaveButton p={p} compact />
    </article>
  );
});

export function ProfileCardSkeleton() {
  return (
    <div class="pcard card pcard-skel" aria-hidden="true">
      <div class="pcard-link">
        <div class="pcard-img skeleton" />
        <div class="pcard-body">
          <div class="skeleton" style={{ blockSize: '18px', inlineSize: '60%' }} />
          <div class="skeleton" style={{ blockSize: '14px', inlineSize: '40%', marginBlockStart: '10px' }} />
          <div class="skeleton" style={{ blockSize: '14px', inlineSize: '50%', marginBlockStart: '10px' }} />
        </div>
      </div>
    </div>
  );
}
