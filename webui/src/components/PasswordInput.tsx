import { useState } from 'preact/hooks';
import { useTranslation } from '../i18n';

/** A password field with a show/hide button. */
export function PasswordInput({ id, value, onInput, invalid, describedBy, autocomplete }: { id: string; value: string; onInput: (v: string) => void; invalid?: boolean; describedBy?: string; autocomplete: string }) {
  const { t } = useTranslation();
  const [show, setShow] = useState(false);
  return (
    <div class="password">
      <input
        id={id}
        class="input"
        type={show ? 'text' : 'password'}
        value={value}
        dir="ltr"
        autocomplete={autocomplete}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
      />
      <button type="button" class="password-toggle" onClick={() => setShow(!show)} aria-pressed={show} aria-label={show ? t('auth.hidePassword') : t('auth.showPassword')}>
        {show ? t('auth.hide') : t('auth.show')}
      </button>
    </div>
  );
}
