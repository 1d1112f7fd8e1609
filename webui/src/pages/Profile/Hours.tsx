import { Fragment } from 'preact';
import { useTranslation } from '../../i18n';
import { formatClock, WEEK, today, type DayHours, type HoursOfWork } from '../../lib/hours';
import { localDigits } from '../../lib/digits';

/** Between two ranges of a day. */
const SEP = { fa: '، ', en: ', ' };

export function dayText(day: DayHours | null | undefined, t: (k: string) => string, lang: string): string {
  if (!day || day.closed) return t('hours.closedDay');
  if (day.boarding) return t('hours.status.Boarding');
  const slots = (day.time ?? []).filter((s) => s.close > s.open);
  if (!slots.length) return t('hours.closedDay');
  return slots.map((s) => localDigits(`${formatClock(s.open)}–${formatClock(s.close)}`, lang)).join(SEP[lang === 'fa' ? 'fa' : 'en']);
}

/** The whole week, Saturday first, today highlighted. */
export function WeekHours({ hours }: { hours: HoursOfWork }) {
  const { t, i18n } = useTranslation();
  const now = today();
  return (
    <table class="hours-table">
      <caption class="visually-hidden">{t('profile.hours')}</caption>
      <tbody>
        {WEEK.map((d) => (
          <tr key={d} class={d === now ? 'today' : ''} aria-current={d === now ? 'date' : undefined}>
            <th scope="row">{t(`week.${d}`)}</th>
            <td class={hours[d]?.closed || !hours[d] ? 'muted' : ''}>
              {/* Each range unbroken: a narrow cell breaks after the comma, never inside a range (REVIEW #32). */}
              {dayText(hours[d], t, i18n.language)
                .split(SEP[i18n.language === 'fa' ? 'fa' : 'en'])
                .map((part, i) => (
                  <Fragment key={part}>
                    {i > 0 && SEP[i18n.language === 'fa' ? 'fa' : 'en']}
                    <span class="nowrap">{part}</span>
                  </Fragment>
                ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
