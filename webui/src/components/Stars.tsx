import { useTranslation } from '../i18n';
import { formatNumber, formatScore } from '../lib/format';

/** Five stars filled to the score (from the inline start, so right to left in Persian), with the score and count. */
export function Stars({ score, count, size = 16, bare }: { score?: number; count?: number; size?: number; bare?: boolean }) {
  const { t, i18n } = useTranslation();
  const s = Math.max(0, Math.min(5, Number(score) || 0));
  const n = Number(count) || 0;
  const label = bare
    ? t('rating.bare', { score: formatScore(s, i18n.language) })
    : n > 0
      ? t('rating.aria', { score: formatScore(s, i18n.language), count: n, n: formatNumber(n, i18n.language) })
      : t('rating.none');
  return (
    <span class="stars" role="img" aria-label={label}>
      {/* Two elements drawn with a star mask (global.css), not ten SVGs: a list of cards has many. */}
      <span class="stars-icons" aria-hidden="true" style={size === 16 ? undefined : { '--star-size': `${size}px` }}>
        <span class="stars-fg" style={{ inlineSize: `${(s / 5) * 100}%` }} />
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
