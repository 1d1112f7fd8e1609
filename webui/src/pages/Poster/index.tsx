import { useMemo } from 'preact/hooks';
import { useParams } from 'react-router-dom';
import { ApiError, getProfile } from '../../api';
import { usePageMeta } from '../../components/PageMeta';
import { ErrorState, Loading } from '../../components/StateViews';
import { Icon } from '../../components/Icon';
import { TradePicture } from '../../components/TradePicture';
import { localName, useTranslation } from '../../i18n';
import { contactLink } from '../../lib/links';
import { localDigits } from '../../lib/digits';
import { useLoad } from '../../lib/useLoad';
import NotFound from '../NotFound';
import './poster.css';

/** The QR code's modules as one SVG path: a square per dark module, on a 1-unit grid. */
function qrPath(data: boolean[][]): string {
  let d = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    });
  });
  return d;
}

/**
 * A printable A5 poster for a shop window: the business's name, trade and city, a QR code of its
 * short link (/p/{id}, which survives a change of name) and its number to call. The QR encoder
 * (uqr) is loaded with this page only, never with the app's first load.
 */
export default function PosterPage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const valid = /^[1-9][0-9]{0,17}$/.test(id);
  const res = useLoad(
    async () => {
      const [p, qr] = await Promise.all([getProfile(Number(id)), import('uqr')]);
      const link = `${location.origin}/p/${p.id}`;
      return { p, link, qr: qr.encode(link, { ecc: 'M', border: 2 }) };
    },
    [id],
    { enabled: valid },
  );
  const p = res.data?.p;
  usePageMeta(p ? `${t('poster.title')} – ${p.profile_name}` : t('poster.title'), t('poster.description'));
  const phone = useMemo(() => {
    for (const s of p?.social_network ?? []) {
      const c = contactLink(s.type, s.link);
      if (c.kind === 'mobile' || c.kind === 'phone') return c.text;
    }
    return '';
  }, [p]);
  if (!valid || (res.status === 'error' && res.error instanceof ApiError && res.error.status === 404)) return <NotFound />;
  if (res.status === 'error') {
    return (
      <div class="container">
        <ErrorState message={res.error?.message} onRetry={res.reload} />
      </div>
    );
  }
  if (!res.data || !p) return <Loading page label={t('common.loading')} />;
  const { qr, link } = res.data;
  return (
    <div class="container poster-page">
      <div class="poster-tools no-print">
        <p class="muted small">{t('poster.hint')}</p>
        <button type="button" class="btn btn-primary" onClick={() => window.print()}>
          <Icon name="print" size={18} />
          {t('poster.print')}
        </button>
      </div>
      <article class="poster" aria-label={t('poster.title')}>
        <TradePicture p={p} class="poster-pic" size={96} lazy={false} />
        <h1 class="poster-name" dir="auto">
          {p.profile_name}
        </h1>
        <p class="poster-trade">
          {localName(p.range_worker, lang)}
          {p.city && ` · ${localName(p.city, lang)}`}
        </p>
        <svg
          class="poster-qr"
          viewBox={`0 0 ${qr.size} ${qr.size}`}
          role="img"
          aria-label={t('poster.qrOf', { name: p.profile_name })}
          shape-rendering="crispEdges"
        >
          <rect width={qr.size} height={qr.size} fill="#fff" />
          <path d={qrPath(qr.data)} fill="#000" />
        </svg>
        <p class="poster-scan">{t('poster.scan')}</p>
        <p class="poster-link ltr">{link.replace(/^https?:\/\//, '')}</p>
        {phone && (
          <p class="poster-phone">
            <Icon name="phone" size={24} />
            <span class="ltr">{localDigits(phone, lang)}</span>
          </p>
        )}
        <p class="poster-brand">{t('poster.onKardan')}</p>
      </article>
    </div>
  );
}
