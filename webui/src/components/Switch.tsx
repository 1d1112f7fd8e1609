import type { ComponentChildren } from 'preact';
import './forms.css';

interface Props {
  checked: boolean;
  onChange: (v: boolean) => void;
  label: ComponentChildren;
  hint?: ComponentChildren;
  disabled?: boolean;
  busy?: boolean;
  id?: string;
}

/** An on/off switch: a real button with role="switch", its label beside it. */
export function Switch({ checked, onChange, label, hint, disabled, busy, id }: Props) {
  return (
    <label class={`switch${disabled ? ' is-disabled' : ''}`}>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-busy={busy || undefined}
        class="switch-track"
        disabled={disabled || busy}
        onClick={() => onChange(!checked)}
      >
        <span class="switch-thumb" aria-hidden="true" />
      </button>
      <span class="switch-text">
        <span>{label}</span>
        {hint && <span class="switch-hint">{hint}</span>}
      </span>
    </label>
  );
}
