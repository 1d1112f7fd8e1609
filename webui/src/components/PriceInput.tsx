import { useEffect, useRef } from 'preact/hooks';
import { formatPriceInput, groupPrice } from '../lib/price';

interface Props {
  id: string;
  value: number | null;
  onChange: (v: number | null) => void;
  lang: string;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  placeholder?: string;
}

/** A Toman amount typed with thousands separators inserted as you type (Persian digits in fa). */
export function PriceInput({ id, value, onChange, lang, disabled, invalid, describedBy, placeholder }: Props) {
  const ref = useRef<HTMLInputElement>(null);
  // The element is written directly while typing (to keep the caret); outside changes are copied in when it is not focused.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const text = value === null ? '' : groupPrice(value, lang);
    if (document.activeElement !== el && el.value !== text) el.value = text;
  }, [value, lang]);

  return (
    <input
      ref={ref}
      id={id}
      class="input price-input"
      dir="ltr"
      inputMode="numeric"
      autocomplete="off"
      disabled={disabled}
      placeholder={placeholder}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      defaultValue={value === null ? '' : groupPrice(value, lang)}
      onInput={(e) => {
        const el = e.target as HTMLInputElement;
        const r = formatPriceInput(el.value, el.selectionStart ?? el.value.length, lang);
        el.value = r.text;
        el.setSelectionRange(r.caret, r.caret);
        onChange(r.value);
      }}
    />
  );
}
