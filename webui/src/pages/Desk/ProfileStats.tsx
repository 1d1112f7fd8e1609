import { useState } from 'preact/hooks';
import { Link, useParams } from 'react-router-dom';
import { BarChart } from '../../components/BarChart';
import { Icon } from '../../components/Icon';
import { Loaded } from '../../components/StateViews';
import { usePageMeta } from '../../components/PageMeta';
import { getOwnProfile, getProfileStats, type ProfileStats as Stats, type StatCounts, type StatKind } from '../../api/desk';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/format';
import { localDigits } from '../../lib/digits';
import { useLoad } from '../../lib/useLoad';
import NotFound from '../NotFound';

const PERIODS = [7, 30, 90] as const;
const TAPS: StatKind[] = ['call', 'sms', 'route', 'share', 'social', 'website', 'quote'];
const SHOWN: StatKind[] = ['view', 'appearance', ...TAPS];

/** The date n days before d, as YYYY-MM-DD in the browser's calendar. */
function isoDay(d: Date, back = 0): string {
  const x = new Date(d.getFullYear(), d.getMonth(), d.getDate() - back);
  return `${x.getFullYear()}-${String(x.getMonth() + 1).padStart(2, '0')}-${String(x.getDate()).padStart(2, '0')}`;
}

/** The last n days to today, as the statistics calls take them. */
export function lastDays(n: number): { from: string; to: string } {
  const today = new Date();
  return { from: isoDay(today, n - 1), to: isoDay(today) };
}

const taps = (c: StatCounts) => TAPS.reduce((n, k) => n + (c[k] ?? 0), 0);

function Change({ now, before, days }: { now: number; before: number; days: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const diff = now - before;
  const dir = diff > 0 ? 'up' : diff < 0 ? 'down' : 'same';
  const pct = before > 0 ? Math.round((Math.abs(diff) / before) * 100) : null;
  const text =
    dir === 'same'
      ? t('deskStats.same', { n: localDigits(days, lang) })
      : t(`deskStats.${dir}`, {
          diff: localDigits(Math.abs(diff), lang),
          pct: pct === null ? '' : t('deskStats.pct', { pct: localDigits(pct, lang) }),
          n: localDigits(days, lang),
        });
  return <span class={`stats-change stats-${dir}`}>{text}</span>;
}

/** The period's total of each kind, against the period before. */
export function StatsTotals({ s }: { s: Stats }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <ul class="stats-totals" role="list">
      {SHOWN.map((k) => (
        <li key={k} class="card card-pad" data-kind={k}>
          <span class="small muted">{t(`deskStats.kind.${k}`)}</span>
          <strong class="stats-total">{localDigits(s.totals[k] ?? 0, lang)}</strong>
          <Change now={s.totals[k] ?? 0} before={s.previous[k] ?? 0} days={s.days.length} />
        </li>
      ))}
    </ul>
  );
}

function Chart({ title, values, stats }: { title: string; values: number[]; stats: Stats }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const total = values.reduce((a, b) => a + b, 0);
  const best = Math.max(0, ...values);
  const summary = t('deskStats.chartSummary', {
    total: localDigits(total, lang),
    n: localDigits(values.length, lang),
    best: localDigits(best, lang),
  });
  return (
    <figure class="stats-chart card card-pad">
      <figcaption>
        <strong>{title}</strong> <span class="small muted">{summary}</span>
      </figcaption>
      <BarChart
        values={values}
        labels={stats.days.map((d) => formatDate(d.date, lang))}
        title={title}
        summary={summary}
        rtl={lang === 'fa'}
        format={(n) => localDigits(n, lang)}
      />
      <div class="stats-axis small muted" aria-hidden="true">
        <span>{formatDate(stats.from, lang)}</span>
        <span>{formatDate(stats.to, lang)}</span>
      </div>
    </figure>
  );
}

function Details({ title, counts }: { title: string; counts: Record<string, number> }) {
  const { t, i18n } = useTranslation();
  const rows = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  if (rows.length === 0) return null;
  return (
    <div class="stats-details card card-pad">
      <h3>{title}</h3>
      <ul role="list">
        {rows.map(([name, n]) => (
          <li key={name}>
            <span>{t(`deskStats.detail.${name}`, { defaultValue: name })}</span>
            <strong>{localDigits(n, i18n.language)}</strong>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The statistics tab of one of the owner's profiles: the last 7, 30 or 90 days. */
export default function ProfileStats() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const id = Number(useParams().id);
  const [days, setDays] = useState<number>(30);
  const valid = Number.isInteger(id) && id > 0;
  const profile = useLoad(() => getOwnProfile(id), [id], { enabled: valid, progress: false });
  const today = new Date();
  const from = isoDay(today, days - 1);
  const to = isoDay(today);
  const stats = useLoad((signal) => getProfileStats(id, from, to, signal), [id, from, to], { enabled: valid });
  usePageMeta(t('deskStats.title'));
  if (!valid) return <NotFound />;

  return (
    <section aria-labelledby="st-title" class="stats">
      <header class="desk-head">
        <div>
          <h1 id="st-title">{t('deskStats.title')}</h1>
          {profile.data && (
            <p class="muted" dir="auto">
              {profile.data.profile_name}
            </p>
          )}
        </div>
        <div class="desk-head-actions">
          <Link to="/dashboard" class="btn btn-ghost btn-sm">
            <Icon name="briefcase" size={18} />
            {t('desk.nav.profiles')}
          </Link>
        </div>
      </header>
      <div class="stats-periods" role="group" aria-label={t('deskStats.period')}>
        {PERIODS.map((n) => (
          <button
            key={n}
            type="button"
            class={`btn btn-sm ${days === n ? 'btn-primary' : 'btn-outline'}`}
            aria-pressed={days === n}
            onClick={() => setDays(n)}
          >
            {t('deskStats.lastDays', { n: localDigits(n, lang) })}
          </button>
        ))}
      </div>
      <Loaded load={stats}>
        {(s) => (
          <>
            <StatsTotals s={s} />
            <div class="stats-charts">
              <Chart title={t('deskStats.kind.view')} values={s.days.map((d) => d.counts.view ?? 0)} stats={s} />
              <Chart title={t('deskStats.kind.appearance')} values={s.days.map((d) => d.counts.appearance ?? 0)} stats={s} />
              <Chart title={t('deskStats.taps')} values={s.days.map((d) => taps(d.counts))} stats={s} />
            </div>
            <div class="stats-detail-grid">
              <Details title={t('deskStats.routeApps')} counts={s.details.route} />
              <Details title={t('deskStats.socials')} counts={s.details.social} />
            </div>
            <p class="small muted stats-privacy">
              <Icon name="info" size={16} /> {t('deskStats.privacy')}
            </p>
          </>
        )}
      </Loaded>
    </section>
  );
}
