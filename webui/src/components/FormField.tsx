import type { ComponentChildren } from 'preact';
import { useTranslation } from '../i18n';
import { localDigits, localDigitsInput, toLatinDigits } from '../lib/digits';
import { PasswordInput } from './PasswordInput';
import './forms.css';

interface Props {
  id: string;
  label: ComponentChildren;
  value: string;
  onInput: (v: string) => void;
  error?: string;
  hint?: ComponentChildren;
  textarea?: boolean;
  rows?: number;
  maxLength?: number;
  /** Shows "used / max" under the field. */
  counter?: boolean;
  required?: boolean;
  dir?: 'ltr' | 'rtl' | 'auto';
  type?: string;
  inputMode?: 'numeric' | 'tel' | 'email' | 'url' | 'text' | 'decimal';
  placeholder?: string;
  autocomplete?: string;
  class?: string;
  /** Extra classes of the input itself (e.g. `otp`). */
  inputClass?: string;
  /** A password input with its show/hide button. */
  password?: boolean;
  /**
   * Digits shown in the language's script (Persian in fa) as they are typed or prefilled, while
   * onInput hands over the value in Latin digits (phone numbers, REVIEW #29).
   */
  localDigits?: boolean;
  onBlur?: () => void;
}

/**
 * A labelled text input, password or textarea with its hint, error and optional counter wired for
 * screen readers: the input is aria-invalid and described by its hint and error, and the error,
 * shown in red under the field, is announced when it appears (role=alert).
 */
export function FormField(p: Props) {
  const { t, i18n } = useTranslation();
  const ids = [p.hint ? `${p.id}-hint` : '', p.error ? `${p.id}-err` : '', p.counter ? `${p.id}-count` : ''].filter(Boolean).join(' ') || undefined;
  const lang = i18n.language;
  const common = {
    id: p.id,
    value: p.localDigits ? localDigits(toLatinDigits(p.value ?? ''), lang) : p.value,
    maxLength: p.maxLength,
    // Names and texts are typed in Persian or English: each keeps its own direction.
    dir: p.dir ?? (p.inputMode === 'numeric' || p.inputMode === 'tel' || p.type === 'email' || p.type === 'url' ? 'ltr' : 'auto'),
    placeholder: p.placeholder,
    'aria-invalid': !!p.error,
    'aria-describedby': ids,
    'aria-required': p.required || undefined,
    onInput: (e: Event) => {
      const el = e.target as HTMLInputElement;
      p.onInput(p.localDigits ? localDigitsInput(el, lang) : el.value);
    },
    onBlur: p.onBlur,
  };
  const used = [...(p.value ?? '')].length;
  return (
    <div class={`field ${p.class ?? ''}`}>
      <div class="field-top">
        <label for={p.id}>
          {p.label}
          {p.required && (
            <span class="req" aria-hidden="true">
              {' '}
              *
            </span>
          )}
        </label>
        {p.counter && p.maxLength && (
          <span class={`field-count${used > p.maxLength * 0.9 ? ' near' : ''}`} id={`${p.id}-count`}>
            {t('picker.counter', { n: localDigits(used, lang), max: localDigits(p.maxLength, lang) })}
          </span>
        )}
      </div>
      {p.password ? (
        <PasswordInput id={p.id} value={p.value} onInput={p.onInput} invalid={!!p.error} describedBy={ids} autocomplete={p.autocomplete ?? 'current-password'} />
      ) : p.textarea ? (
        <textarea class="textarea" rows={p.rows ?? 4} {...common} />
      ) : (
        <input class={`input ${p.inputClass ?? ''}`} type={p.type ?? 'text'} inputMode={p.inputMode} autocomplete={p.autocomplete} {...common} />
      )}
      {p.hint && (
        <span class="field-hint" id={`${p.id}-hint`}>
          {p.hint}
        </span>
      )}
      {p.error && (
        <span class="field-error" id={`${p.id}-err`} role="alert">
          {p.error}
        </span>
      )}
    </div>
  );
}
