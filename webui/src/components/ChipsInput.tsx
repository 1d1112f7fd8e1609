import { useState } from 'preact/hooks';
import './forms.css';
import { useTranslation } from '../i18n';
import { Icon } from './Icon';

interface Props {
  id: string;
  label: string;
  values: string[];
  onChange: (v: string[]) => void;
  placeholder?: string;
  hint?: string;
  error?: string;
  max?: number;
  maxLength?: number;
}

/** A list of short texts (service areas, tags): type and press Enter or comma to add, × to remove. */
export function ChipsInput({ id, label, values, onChange, placeholder, hint, error, max = 30, maxLength = 100 }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const add = (raw: string) => {
    const parts = raw
      .split(/[,،\n]/)
      .map((s) => s.trim().slice(0, maxLength))
      .filter(Boolean);
    if (!parts.length) return;
    const next = [...values];
    for (const p of parts) if (!next.includes(p) && next.length < max) next.push(p);
    onChange(next);
    setText('');
  };
  const full = values.length >= max;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {values.length > 0 && (
        <ul class="chips" role="list">
          {values.map((v) => (
            <li key={v} class="chip">
              <span dir="auto">{v}</span>
              <button type="button" class="chip-x" aria-label={t('picker.remove', { name: v })} onClick={() => onChange(values.filter((x) => x !== v))}>
                <Icon name="close" size={14} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="input-with-btn">
        <input
          id={id}
          class="input"
          dir="auto"
          value={text}
          placeholder={placeholder}
          disabled={full}
          maxLength={maxLength + 20}
          aria-invalid={!!error}
          aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined}
          onInput={(e) => {
            const v = (e.target as HTMLInputElement).value;
            if (/[,،\n]/.test(v)) add(v);
            else setText(v);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add(text);
            } else if (e.key === 'Backspace' && !text && values.length) {
              onChange(values.slice(0, -1));
            }
          }}
          onBlur={() => add(text)}
        />
        <button type="button" class="btn btn-outline" onClick={() => add(text)} disabled={!text.trim() || full}>
          <Icon name="plus" size={18} />
          {t('picker.add')}
        </button>
      </div>
      {hint && (
        <span class="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span class="field-error" id={`${id}-err`}>
          {error}
        </span>
      )}
    </div>
  );
}
