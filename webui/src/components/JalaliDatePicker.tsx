import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useTranslation } from '../i18n';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import {
  addMonths,
  compareJ,
  DATE_FORMAT,
  formatJalali,
  jalaliMonthLength,
  jalaliOf,
  jalaliToDate,
  jalaliWeekday,
  parseJalali,
  toGregorian,
  toJalali,
  yearBounds,
  type JDate,
} from '../lib/jalali';
import { localDigits } from '../lib/digits';
import './date-picker.css';
import { formatLongDate } from '../lib/format';

interface Props {
  id: string;
  label: string;
  value: JDate | null;
  onChange: (d: JDate | null) => void;
  error?: string;
  hint?: string;
  /** The date the calendar opens on when there is no value (default today). */
  today?: JDate;
}

/** Month slide duration (SPEC §9). */
export const SLIDE_MS = 250;

/**
 * A Jalali date field: type the date (checked against the year, month and day tokens of the
 * format) or pick it from a month calendar, years 110 before to 50 after this year.
 */
export function JalaliDatePicker({ id, label, value, onChange, error, hint, today: todayProp }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const today = useMemo(() => todayProp ?? jalaliOf(new Date()), [todayProp]);
  const bounds = useMemo(() => yearBounds(today.jy), [today.jy]);
  const [text, setText] = useState(value ? formatJalali(value, lang) : '');
  const [textErr, setTextErr] = useState('');
  const [open, setOpen] = useState(false);
  const [view, setView] = useState({ jy: (value ?? today).jy, jm: (value ?? today).jm });
  const [slide, setSlide] = useState<'next' | 'prev' | ''>('');
  const [focusDay, setFocusDay] = useState<JDate>(value ?? today);
  const grid = useRef<HTMLDivElement>(null);
  // The grid takes the focus when the calendar opens and while the arrow keys move in it, not when a select changes the month.
  const wantFocus = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the text follows the date value, not the object that carries it
  useEffect(() => {
    setText(value ? formatJalali(value, lang) : '');
    setTextErr('');
  }, [value?.jy, value?.jm, value?.jd, lang]);

  const formatLabel = lang === 'fa' ? t('datePicker.formatFa') : DATE_FORMAT;

  const commit = () => {
    const r = parseJalali(text, DATE_FORMAT, bounds);
    if (r.ok) {
      setTextErr('');
      onChange(r.date);
    } else if (r.reason === 'empty') {
      setTextErr('');
      onChange(null);
    } else {
      setTextErr(t(`datePicker.errors.${r.reason}`, { format: formatLabel, min: localDigits(bounds.min, lang), max: localDigits(bounds.max, lang) }));
    }
  };

  const go = (jy: number, jm: number, dir?: 'next' | 'prev') => {
    if (jy < bounds.min || jy > bounds.max) return;
    const d = dir ?? (jy * 12 + jm > view.jy * 12 + view.jm ? 'next' : 'prev');
    setSlide(d);
    setView({ jy, jm });
    setFocusDay((f) => ({ jy, jm, jd: Math.min(f.jd, jalaliMonthLength(jy, jm)) }));
  };

  const openCalendar = () => {
    const start = value ?? today;
    setView({ jy: start.jy, jm: start.jm });
    setFocusDay(start);
    setSlide('');
    wantFocus.current = true;
    setOpen(true);
  };

  useEffect(() => {
    if (!open || !wantFocus.current) return;
    const id = setTimeout(() => {
      wantFocus.current = false;
      grid.current?.querySelector<HTMLButtonElement>('[tabindex="0"]')?.focus();
    }, 40);
    return () => clearTimeout(id);
  }, [open, view.jy, view.jm, focusDay.jd]);

  const choose = (d: JDate) => {
    onChange(d);
    setOpen(false);
  };

  const moveFocus = (days: number) => {
    const g = toGregorian(focusDay.jy, focusDay.jm, focusDay.jd);
    const dt = new Date(Date.UTC(g.gy, g.gm - 1, g.gd) + days * 86400000);
    const next = toJalali(dt.getUTCFullYear(), dt.getUTCMonth() + 1, dt.getUTCDate());
    if (next.jy < bounds.min || next.jy > bounds.max) return;
    if (next.jy !== view.jy || next.jm !== view.jm) {
      setSlide(days > 0 ? 'next' : 'prev');
      setView({ jy: next.jy, jm: next.jm });
    }
    setFocusDay(next);
  };

  const onGridKey = (e: KeyboardEvent) => {
    const rtl = document.documentElement.dir === 'rtl';
    wantFocus.current = true;
    const map: Record<string, number> = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, ArrowDown: 7, ArrowUp: -7 };
    if (e.key in map) {
      e.preventDefault();
      moveFocus(map[e.key]);
    } else if (e.key === 'PageDown' || e.key === 'PageUp') {
      e.preventDefault();
      const m = addMonths(view.jy, view.jm, e.key === 'PageDown' ? 1 : -1);
      go(m.jy, m.jm, e.key === 'PageDown' ? 'next' : 'prev');
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const wd = jalaliWeekday(focusDay);
      moveFocus(e.key === 'Home' ? -wd : 6 - wd);
    }
  };

  const len = jalaliMonthLength(view.jy, view.jm);
  const lead = jalaliWeekday({ jy: view.jy, jm: view.jm, jd: 1 });
  const cells: (number | null)[] = [...Array(lead).fill(null), ...Array.from({ length: len }, (_, i) => i + 1)];
  while (cells.length % 7) cells.push(null);
  const years = Array.from({ length: bounds.max - bounds.min + 1 }, (_, i) => bounds.min + i);
  const prev = addMonths(view.jy, view.jm, -1);
  const next = addMonths(view.jy, view.jm, 1);
  const monthName = (m: number) => t(`datePicker.months.m${m}`);
  const describedBy = [hint ? `${id}-hint` : '', textErr || error ? `${id}-err` : '', value ? `${id}-read` : ''].filter(Boolean).join(' ') || undefined;
  const readable = value ? formatLongDate(jalaliToDate(value, 12 * 60), lang) : '';

  return (
    <div class="field date-field">
      <label for={id}>{label}</label>
      <div class="input-with-btn">
        <input
          id={id}
          class="input"
          dir="ltr"
          inputMode="numeric"
          autocomplete="off"
          placeholder={lang === 'fa' ? localDigits(formatJalali(today, 'en'), 'fa') : formatJalali(today, 'en')}
          value={text}
          aria-invalid={!!(textErr || error)}
          aria-describedby={describedBy}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
        />
        <button type="button" class="btn btn-outline" aria-haspopup="dialog" onClick={openCalendar}>
          <Icon name="calendar" size={18} />
          <span class="visually-hidden">{t('datePicker.open', { label })}</span>
        </button>
      </div>
      {value && !textErr && (
        <span class="field-hint" id={`${id}-read`}>
          {readable}
        </span>
      )}
      {hint && (
        <span class="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {(textErr || error) && (
        <span class="field-error" id={`${id}-err`} role="alert">
          {textErr || error}
        </span>
      )}
      <Dialog open={open} onClose={() => setOpen(false)} title={label} class="date-dialog">
        <div class="cal-head">
          <button type="button" class="icon-btn" aria-label={t('datePicker.prevMonth')} disabled={prev.jy < bounds.min} onClick={() => go(prev.jy, prev.jm, 'prev')}>
            <Icon name="chevron" size={20} class="flip-back" />
          </button>
          <div class="cal-selects">
            <label class="visually-hidden" for={`${id}-month`}>
              {t('datePicker.month')}
            </label>
            <select id={`${id}-month`} class="select" value={view.jm} onChange={(e) => go(view.jy, Number((e.target as HTMLSelectElement).value))}>
              {Array.from({ length: 12 }, (_, i) => (
                <option key={i} value={i + 1}>
                  {monthName(i + 1)}
                </option>
              ))}
            </select>
            <label class="visually-hidden" for={`${id}-year`}>
              {t('datePicker.year')}
            </label>
            <select id={`${id}-year`} class="select" value={view.jy} onChange={(e) => go(Number((e.target as HTMLSelectElement).value), view.jm)}>
              {years.map((y) => (
                <option key={y} value={y}>
                  {localDigits(y, lang)}
                </option>
              ))}
            </select>
          </div>
          <button type="button" class="icon-btn" aria-label={t('datePicker.nextMonth')} disabled={next.jy > bounds.max} onClick={() => go(next.jy, next.jm, 'next')}>
            <Icon name="chevron" size={20} class="flip-rtl" />
          </button>
        </div>
        <div class="cal-viewport">
          <div
            key={`${view.jy}-${view.jm}`}
            ref={grid}
            class={`cal-grid${slide ? ` slide-${slide}` : ''}`}
            style={{ animationDuration: `${SLIDE_MS}ms` }}
            role="grid"
            aria-label={`${monthName(view.jm)} ${localDigits(view.jy, lang)}`}
            onKeyDown={onGridKey as never}
          >
            <div class="cal-row cal-weekdays" role="row">
              {Array.from({ length: 7 }, (_, i) => (
                <span key={i} role="columnheader" class="cal-wd">
                  <abbr title={t(`datePicker.weekdays.d${i}`)}>{t(`datePicker.weekdaysShort.d${i}`)}</abbr>
                </span>
              ))}
            </div>
            {Array.from({ length: cells.length / 7 }, (_, r) => (
              <div key={r} class="cal-row" role="row">
                {cells.slice(r * 7, r * 7 + 7).map((d, c) => {
                  if (!d) return <span key={c} role="gridcell" class="cal-empty" />;
                  const day = { jy: view.jy, jm: view.jm, jd: d };
                  const selected = !!value && compareJ(value, day) === 0;
                  const isToday = compareJ(today, day) === 0;
                  const focus = focusDay.jy === view.jy && focusDay.jm === view.jm && focusDay.jd === d;
                  return (
                    <span key={c} role="gridcell" aria-selected={selected}>
                      <button
                        type="button"
                        class={`cal-day${selected ? ' is-selected' : ''}${isToday ? ' is-today' : ''}`}
                        tabIndex={focus ? 0 : -1}
                        aria-current={isToday ? 'date' : undefined}
                        aria-label={`${localDigits(d, lang)} ${monthName(view.jm)} ${localDigits(view.jy, lang)}`}
                        onClick={() => choose(day)}
                        onFocus={() => setFocusDay(day)}
                      >
                        {localDigits(d, lang)}
                      </button>
                    </span>
                  );
                })}
              </div>
            ))}
          </div>
        </div>
        <div class="cal-foot">
          <button type="button" class="btn btn-outline btn-sm" onClick={() => choose(today)}>
            {t('datePicker.today')}
          </button>
          {value && (
            <button
              type="button"
              class="btn btn-ghost btn-sm"
              onClick={() => {
                onChange(null);
                setOpen(false);
              }}
            >
              {t('datePicker.clear')}
            </button>
          )}
        </div>
      </Dialog>
    </div>
  );
}
