import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import './forms.css';
import { useTranslation } from '../i18n';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import { Loaded } from './StateViews';
import { useLoad } from '../lib/useLoad';
import { collator } from '../lib/intl';
import { fold } from './CityPicker';

export interface Option {
  id: number;
  label: string;
  /** Other spellings the filter should match (the name in the other language). */
  alt?: string;
}

interface Props {
  id: string;
  label: string;
  value: Option | null;
  placeholder: string;
  /** Loads the options when the list opens; null while there is nothing to choose from. */
  load: (() => Promise<Option[]>) | null;
  onChange: (o: Option) => void;
  disabled?: boolean;
  error?: string;
  hint?: string;
  filterLabel: string;
}

/** A field whose value is chosen from a long list in a dialog with a filter (provinces, cities). */
export function SearchSelect({ id, label, value, placeholder, load, onChange, disabled, error, hint, filterLabel }: Props) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const items = useLoad(() => (load ? load() : Promise.resolve([])), [load], { enabled: open && !!load, clearOnChange: true, progress: false });
  const [filter, setFilter] = useState('');
  const filterRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (open) {
      setFilter('');
      setTimeout(() => filterRef.current?.focus(), 30);
    }
  }, [open]);

  const shown = useMemo(() => {
    const f = fold(filter);
    const order = collator(i18n.language);
    const list = [...(items.data ?? [])].sort((a, b) => order.compare(a.label, b.label));
    return f ? list.filter((o) => fold(o.label).includes(f) || fold(o.alt ?? '').includes(f)) : list;
  }, [items.data, filter, i18n.language]);

  const describedBy = [error ? `${id}-err` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;

  return (
    <div class="field">
      <span class="field-label" id={`${id}-label`}>
        {label}
      </span>
      <button
        id={id}
        type="button"
        class={`input select-btn${value ? '' : ' is-empty'}`}
        aria-haspopup="dialog"
        aria-labelledby={`${id}-label ${id}`}
        aria-invalid={!!error}
        aria-describedby={describedBy}
        disabled={disabled || !load}
        onClick={() => setOpen(true)}
      >
        <span dir="auto">{value ? value.label : placeholder}</span>
        <Icon name="chevronDown" size={18} />
      </button>
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
      <Dialog open={open} onClose={() => setOpen(false)} title={label} class="picker">
        <div class="picker-top">
          <label class="visually-hidden" for={`${id}-filter`}>
            {filterLabel}
          </label>
          <input
            ref={filterRef}
            id={`${id}-filter`}
            class="input"
            type="search"
            value={filter}
            placeholder={filterLabel}
            autocomplete="off"
            onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && shown.length === 1) {
                e.preventDefault();
                onChange(shown[0]);
                setOpen(false);
              }
            }}
          />
        </div>
        <Loaded load={items}>
          {() => (
            <ul class="picker-list" role="list">
              {shown.map((o) => (
                <li key={o.id}>
                  <button
                    type="button"
                    class={`picker-item${value?.id === o.id ? ' strong' : ''}`}
                    aria-current={value?.id === o.id ? 'true' : undefined}
                    onClick={() => {
                      onChange(o);
                      setOpen(false);
                    }}
                  >
                    <span>{o.label}</span>
                    {value?.id === o.id && <Icon name="check" size={18} />}
                  </button>
                </li>
              ))}
              {shown.length === 0 && <li class="muted picker-empty">{t('errors.noItems')}</li>}
            </ul>
          )}
        </Loaded>
      </Dialog>
    </div>
  );
}
