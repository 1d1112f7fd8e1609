import { useState } from 'preact/hooks';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { Dialog } from '../../../components/Dialog';
import { WEEK, formatClock, type DayHours, type HoursOfWork, type Weekday } from '../../../lib/hours';
import { copyDay, dayMode, MAX_SLOTS, nextSlot, slotTimes, validateDay, withMode, type DayIssue, type DayMode } from '../../../lib/weekHours';
import { localDigits } from '../../../lib/digits';
import type { TabProps } from './shared';

const TIMES = slotTimes();

function TimeSelect({ id, value, onChange, label, invalid, min, max }: { id: string; value: number; onChange: (v: number) => void; label: string; invalid?: boolean; min: number; max: number }) {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  const opts = TIMES.filter((s) => s >= min && s <= max);
  // A stored time off the quarter hours (08:10) stays selectable so it is shown and kept.
  if (!opts.includes(value)) opts.push(value);
  opts.sort((a, b) => a - b);
  return (
    <select id={id} class="select time-select" value={value} aria-label={label} aria-invalid={invalid} onChange={(e) => onChange(Number((e.target as HTMLSelectElement).value))}>
      {opts.map((s) => (
        <option key={s} value={s}>
          {localDigits(formatClock(s), lang)}
        </option>
      ))}
    </select>
  );
}

function CopyDialog({ from, open, onClose, onCopy }: { from: Weekday; open: boolean; onClose: () => void; onCopy: (to: Weekday[]) => void }) {
  const { t } = useTranslation();
  const [to, setTo] = useState<Weekday[]>([]);
  const others = WEEK.filter((d) => d !== from);
  const all = to.length === others.length;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('hoursEdit.copyTitle', { day: t(`week.${from}`) })}
      actions={
        <>
          <button type="button" class="btn btn-ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            class="btn btn-primary"
            disabled={!to.length}
            onClick={() => {
              onCopy(to);
              setTo([]);
            }}
          >
            {t('hoursEdit.copyApply')}
          </button>
        </>
      }
    >
      <fieldset class="copy-days">
        <legend class="visually-hidden">{t('hoursEdit.copyTo')}</legend>
        <label class="checkbox">
          <input type="checkbox" checked={all} onChange={() => setTo(all ? [] : [...others])} />
          <strong>{t('hoursEdit.allOther')}</strong>
        </label>
        {others.map((d) => (
          <label key={d} class="checkbox">
            <input type="checkbox" checked={to.includes(d)} onChange={() => setTo(to.includes(d) ? to.filter((x) => x !== d) : [...to, d])} />
            <span>{t(`week.${d}`)}</span>
          </label>
        ))}
      </fieldset>
    </Dialog>
  );
}

export default function Hours({ form, update, err }: TabProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [copyFrom, setCopyFrom] = useState<Weekday | null>(null);
  const week = form.hours_of_work;
  const setWeek = (fn: (h: HoursOfWork) => HoursOfWork) => update((f) => ({ ...f, hours_of_work: fn(f.hours_of_work) }), ['hours_of_work']);
  const setDay = (d: Weekday, day: DayHours) => setWeek((h) => ({ ...h, [d]: day }));

  const issueText = (x: DayIssue) => t(`hoursEdit.issues.${x.kind}`, { day: t(`week.${x.day}`), n: x.slot !== undefined ? localDigits(x.slot + 1, lang) : '', max: localDigits(MAX_SLOTS, lang) });

  return (
    <div>
      {err('hours_of_work') && (
        <p class="form-error" role="alert" id="pf-hours_of_work" tabIndex={-1}>
          {err('hours_of_work')}
        </p>
      )}
      <ul class="days" role="list">
        {WEEK.map((d) => {
          const day = week[d];
          const mode = dayMode(day);
          const issues = validateDay(d, day);
          const slots = day?.time ?? [];
          const bad = (i: number) => issues.some((x) => x.slot === i);
          const modes: DayMode[] = ['open', 'boarding', 'closed'];
          return (
            <li key={d} class={`day-card${issues.length ? ' has-issue' : ''}`}>
              <div class="day-head">
                <h3 id={`pf-day-${d}`}>{t(`week.${d}`)}</h3>
                <div class="seg" role="radiogroup" aria-labelledby={`pf-day-${d}`}>
                  {modes.map((m) => (
                    <label key={m} class={`seg-opt${mode === m ? ' on' : ''}`}>
                      <input type="radio" name={`pf-mode-${d}`} value={m} checked={mode === m} onChange={() => setDay(d, withMode(day, m))} />
                      <span>{t(`hoursEdit.mode.${m}`)}</span>
                    </label>
                  ))}
                </div>
              </div>
              {mode === 'open' && (
                <ul class="slots" role="list">
                  {slots.map((s, i) => (
                    <li key={i} class={`slot${bad(i) ? ' is-bad' : ''}`}>
                      <span class="slot-label small muted">{t('hoursEdit.from')}</span>
                      <TimeSelect
                        id={`pf-${d}-${i}-open`}
                        label={t('hoursEdit.openAt', { day: t(`week.${d}`), n: localDigits(i + 1, lang) })}
                        value={s.open}
                        min={0}
                        max={86400 - 900}
                        invalid={bad(i)}
                        onChange={(v) => setDay(d, { ...day!, time: slots.map((x, k) => (k === i ? { ...x, open: v } : x)) })}
                      />
                      <span class="slot-label small muted">{t('hoursEdit.to')}</span>
                      <TimeSelect
                        id={`pf-${d}-${i}-close`}
                        label={t('hoursEdit.closeAt', { day: t(`week.${d}`), n: localDigits(i + 1, lang) })}
                        value={s.close}
                        min={900}
                        max={86400}
                        invalid={bad(i)}
                        onChange={(v) => setDay(d, { ...day!, time: slots.map((x, k) => (k === i ? { ...x, close: v } : x)) })}
                      />
                      <button
                        type="button"
                        class="icon-btn"
                        aria-label={t('hoursEdit.removeSlot', { day: t(`week.${d}`), n: localDigits(i + 1, lang) })}
                        onClick={() => setDay(d, { ...day!, time: slots.filter((_, k) => k !== i) })}
                      >
                        <Icon name="close" size={18} />
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              {issues.length > 0 && (
                <ul class="day-issues" role="list" aria-live="polite">
                  {issues.map((x, k) => (
                    <li key={k} class="field-error">
                      <Icon name="alert" size={16} /> {issueText(x)}
                    </li>
                  ))}
                </ul>
              )}
              <div class="day-tools">
                {mode === 'open' && (
                  <button type="button" class="btn btn-ghost btn-sm" disabled={slots.length >= MAX_SLOTS} onClick={() => setDay(d, { ...day!, boarding: false, closed: false, time: [...slots, nextSlot(day)] })}>
                    <Icon name="plus" size={16} />
                    {t('hoursEdit.addSlot')}
                  </button>
                )}
                <button type="button" class="btn btn-ghost btn-sm" onClick={() => setCopyFrom(d)}>
                  <Icon name="copy" size={16} />
                  {t('hoursEdit.copy')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {copyFrom && (
        <CopyDialog
          from={copyFrom}
          open={!!copyFrom}
          onClose={() => setCopyFrom(null)}
          onCopy={(to) => {
            setWeek((h) => copyDay(h, copyFrom, to));
            setCopyFrom(null);
          }}
        />
      )}
    </div>
  );
}
