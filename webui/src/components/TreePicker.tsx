import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import './forms.css';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import { fold } from './CityPicker';
import { localName, useTranslation } from '../i18n';
import { localDigits } from '../lib/digits';
import type { CategoryNode } from '../api/types';

export interface TreeValue {
  field: number | null;
  categories: number[];
}

interface Props {
  id: string;
  label: string;
  tree: CategoryNode[] | null;
  value: TreeValue;
  onChange: (v: TreeValue) => void;
  /** `field`: one field of work and categories inside it (profiles); `any`: categories from any field (blogs). */
  mode: 'field' | 'any';
  max?: number;
  error?: string;
  hint?: string;
  loadError?: string;
  onRetry?: () => void;
  /** Only these fields of work are offered (blogs: the writer's fields). */
  onlyFields?: number[] | null;
}

/** Finds nodes of the category tree by id. */
export function indexTree(tree: CategoryNode[] | null | undefined) {
  const byId = new Map<number, CategoryNode>();
  const parent = new Map<number, number>();
  for (const f of tree ?? []) {
    byId.set(f.id, f);
    for (const c of f.children ?? []) {
      byId.set(c.id, c);
      parent.set(c.id, f.id);
    }
  }
  return { byId: (id: number | null | undefined) => (id ? byId.get(id) ?? null : null), parentOf: (id: number) => parent.get(id) ?? null };
}

/** The field of work and its categories, chosen from the category tree in a dialog. */
export function TreePicker({ id, label, tree, value, onChange, mode, max = 10, error, hint, loadError, onRetry, onlyFields }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const [note, setNote] = useState('');
  const idx = useMemo(() => indexTree(tree), [tree]);
  const filterRef = useRef<HTMLInputElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the tree opens on the chosen items when it opens, not on every pick
  useEffect(() => {
    if (!open) return;
    setFilter('');
    setNote('');
    const start = new Set<number>();
    if (value.field) start.add(value.field);
    for (const c of value.categories) {
      const p = idx.parentOf(c);
      if (p) start.add(p);
    }
    setExpanded(start);
    setTimeout(() => filterRef.current?.focus(), 30);
  }, [open]);

  const f = fold(filter);
  // A category is found by its search synonyms too («سونوگرافی» finds radiology).
  const matches = (n: CategoryNode) =>
    !f || fold(n.farsi_name).includes(f) || fold(n.english_name).includes(f) || (n.synonyms ?? []).some((w) => fold(w).includes(f));
  const shown = (tree ?? [])
    .filter((field) => !onlyFields || onlyFields.includes(field.id))
    .map((field) => {
      const kids = (field.children ?? []).filter((c) => matches(c) || matches(field));
      return { field, kids, visible: matches(field) || kids.length > 0 };
    })
    .filter((x) => x.visible);

  const toggle = (fieldId: number, catId: number) => {
    const has = value.categories.includes(catId);
    if (has) {
      onChange({ field: value.field, categories: value.categories.filter((c) => c !== catId) });
      return;
    }
    if (mode === 'field' && value.field && value.field !== fieldId) {
      const from = localName(idx.byId(value.field), lang);
      const to = localName(idx.byId(fieldId), lang);
      setNote(t('picker.fieldChanged', { from, to }));
      onChange({ field: fieldId, categories: [catId] });
      return;
    }
    if (value.categories.length >= max) return;
    onChange({ field: mode === 'field' ? fieldId : value.field, categories: [...value.categories, catId] });
  };

  const field = idx.byId(value.field);
  const chosen = value.categories.map((c) => idx.byId(c)).filter((x): x is CategoryNode => !!x);
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined;

  return (
    <div class="field">
      <span class="field-label" id={`${id}-label`}>
        {label}
      </span>
      <button
        id={id}
        type="button"
        class={`input select-btn tree-btn${field || chosen.length ? '' : ' is-empty'}`}
        aria-haspopup="dialog"
        aria-labelledby={`${id}-label ${id}`}
        aria-invalid={!!error}
        aria-describedby={describedBy}
        disabled={!tree}
        onClick={() => setOpen(true)}
      >
        <span class="tree-btn-text">
          {mode === 'field' && field && <strong>{localName(field, lang)}</strong>}
          {chosen.length > 0 ? (
            <span class="tree-btn-cats">{chosen.map((c) => localName(c, lang)).join(i18n.language === 'fa' ? '، ' : ', ')}</span>
          ) : (
            <span class="muted">{loadError ? t('errors.categories') : !tree ? t('common.loading') : t(mode === 'field' ? 'picker.chooseField' : 'picker.chooseCategories')}</span>
          )}
        </span>
        <Icon name="chevronDown" size={18} />
      </button>
      {loadError && onRetry && (
        <button type="button" class="link-btn" onClick={onRetry}>
          {t('common.tryAgain')}
        </button>
      )}
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
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={label}
        class="picker tree-picker"
        actions={
          <button type="button" class="btn btn-primary" onClick={() => setOpen(false)}>
            {t('picker.done', { n: value.categories.length })}
          </button>
        }
      >
        <div class="picker-top">
          <label class="visually-hidden" for={`${id}-filter`}>
            {t('picker.filterCategories')}
          </label>
          <input
            ref={filterRef}
            id={`${id}-filter`}
            class="input"
            type="search"
            value={filter}
            placeholder={t('picker.filterCategories')}
            autocomplete="off"
            onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
          />
          <p class="small muted tree-hint">{t(mode === 'field' ? 'picker.fieldHint' : 'picker.anyHint', { max: localDigits(max, lang) })}</p>
          {note && (
            <p class="small tree-note" role="status">
              {note}
            </p>
          )}
        </div>
        <ul class="picker-list tree" role="list">
          {shown.map(({ field: fd, kids }) => {
            const isOpen = !!f || expanded.has(fd.id);
            const count = value.categories.filter((c) => idx.parentOf(c) === fd.id).length;
            return (
              <li key={fd.id}>
                <button
                  type="button"
                  class={`picker-item tree-field${value.field === fd.id ? ' strong' : ''}`}
                  aria-expanded={isOpen}
                  aria-controls={`${id}-f${fd.id}`}
                  onClick={() => {
                    const next = new Set(expanded);
                    if (next.has(fd.id)) next.delete(fd.id);
                    else next.add(fd.id);
                    setExpanded(next);
                  }}
                >
                  <span>
                    {localName(fd, lang)}
                    {count > 0 && <span class="tree-count">{count.toLocaleString(lang === 'fa' ? 'fa-IR' : 'en-US')}</span>}
                  </span>
                  <Icon name="chevronDown" size={18} class={isOpen ? 'rot-180' : ''} />
                </button>
                {isOpen && (
                  <ul id={`${id}-f${fd.id}`} class="tree-kids" role="list">
                    {kids.map((c) => {
                      const checked = value.categories.includes(c.id);
                      const blocked = !checked && value.categories.length >= max && !(mode === 'field' && value.field !== fd.id);
                      return (
                        <li key={c.id}>
                          <label class={`checkbox tree-cat${blocked ? ' is-disabled' : ''}`}>
                            <input type="checkbox" checked={checked} disabled={blocked} onChange={() => toggle(fd.id, c.id)} />
                            <span>{localName(c, lang)}</span>
                          </label>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </li>
            );
          })}
          {shown.length === 0 && <li class="muted picker-empty">{t('errors.noItems')}</li>}
        </ul>
      </Dialog>
    </div>
  );
}
