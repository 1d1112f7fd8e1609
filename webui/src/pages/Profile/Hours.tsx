import { useTranslation } from '../../i18n';
import { formatClock, WEEK, today, type DayHours, type HoursOfWork } from '../../lib/hours';
import { localDigits } from '../../lib/digits';

export function dayText(day: DayHours | null | undefined, t: (k: string) => string, lang: string): string {
  if (!day || day.closed) return t('hours.closedDay');
  if (day.boarding) return t('hours.status.Boarding');
  const slots = (day.time ?? []).filter((s) => s.close > s.open);
  if (!slots.length) return t('hours.closedDay');
  return slots.map((s) => localDigits(`${formatClock(s.open)}–${formatClock(s.close)}`, lang)).join(lang === 'fa' ? '، ' : ', ');
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
            <td class={hours[d]?.closed || !hours[d] ? 'muted' : ''}>{dayText(hours[d], t, i18n.language)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
