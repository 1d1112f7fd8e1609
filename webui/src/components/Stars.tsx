import { useTranslation } from '../i18n';
import { formatNumber, formatScore } from '../lib/format';

const STAR = 'm12 2.8 2.8 5.8 6.3.9-4.6 4.4 1.1 6.3L12 17.2l-5.6 3 1.1-6.3-4.6-4.4 6.3-.9z';

function Row({ size }: { size: number }) {
  return (
    <>
      {[0, 1, 2, 3, 4].map((i) => (
        <svg key={i} width={size} height={size} viewBox="0 0 24 24" focusable="false">
          <path d={STAR} fill="currentColor" />
        </svg>
      ))}
    </>
  );
}

/** Five stars filled to the score (from the inline start, so right to left in Persian), with the score and count. */
export function Stars({ score, count, size = 16, bare }: { score?: number; count?: number; size?: number; bare?: boolean }) {
  const { t, i18n } = useTranslation();
  const s = Math.max(0, Math.min(5, Number(score) || 0));
  const n = Number(count) || 0;
  const label = bare
    ? t('rating.bare', { score: formatScore(s, i18n.language) })
    : n > 0
      ? t('rating.aria', { score: formatScore(s, i18n.language), count: formatNumber(n, i18n.language) })
      : t('rating.none');
  return (
    <span class="stars" role="img" aria-label={label}>
      <span class="stars-icons" aria-hidden="true">
        <span class="stars-bg">
          <Row size={size} />
        </span>
        <span class="stars-fg" style={{ inlineSize: `${(s / 5) * 100}%` }}>
          <Row size={size} />
        </span>
      </span>
      {bare ? null : n > 0 ? (
        <span aria-hidden="true">
          <strong>{formatScore(s, i18n.language)}</strong> ({formatNumber(n, i18n.language)})
        </span>
      ) : (
        <span aria-hidden="true">{t('rating.new')}</span>
      )}
    </span>
  );
}
