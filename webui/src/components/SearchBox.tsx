import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { useNavigate } from 'react-router-dom';
import { getSuggestions, type PlaceName, type Suggestions } from '../api';
import { localName, useTranslation } from '../i18n';
import { parseRecent, withRecent } from '../lib/recentSearches';
import { ALL_IRAN, urlFromFilters } from '../lib/searchUrl';
import { Icon } from './Icon';
import './searchbox.css';

const RECENT_KEY = 'kardan.recentSearches';
const DEBOUNCE_MS = 120;

/** The searches typed last on this device, newest first. */
export function recentSearches(): string[] {
  try {
    return parseRecent(localStorage.getItem(RECENT_KEY));
  } catch {
    return []; // storage refused (private mode): no list
  }
}

/** Remembers a search typed, for the suggestions of an empty box. */
export function rememberSearch(q: string) {
  if (!q.trim()) return;
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(withRecent(recentSearches(), q)));
  } catch {
    /* a full storage only forgets the list */
  }
}

type Option =
  | { kind: 'recent'; text: string }
  | { kind: 'category'; place: PlaceName }
  | { kind: 'city'; place: PlaceName }
  | { kind: 'profile'; name: string; slug: string; city: PlaceName | null; image: string };

function optionsOf(s: Suggestions | null, recent: string[], q: string): Option[] {
  if (!q.trim()) return recent.map((text) => ({ kind: 'recent', text }));
  if (!s) return [];
  return [
    ...s.categories.map((place): Option => ({ kind: 'category', place })),
    ...s.cities.map((place): Option => ({ kind: 'city', place })),
    ...s.profiles.map(
      (p): Option => ({ kind: 'profile', name: p.profile_name, slug: p.slug, city: p.city, image: p.profile_image || p.logo }),
    ),
  ];
}

/**
 * The search text box with suggestions as you type: categories, cities and profiles from the
 * server's suggest (Persian, English or Finglish, from the first letter), or the recent searches
 * when the box is empty. A combobox: arrows move through the list, Enter picks (or searches the
 * text), Escape closes; screen readers hear the active option through aria-activedescendant.
 */
export function SearchBox({
  value,
  onValue,
  onSubmit,
  city,
  category,
  id,
  placeholder,
  bare,
}: {
  value: string;
  onValue: (v: string) => void;
  onSubmit: (q: string) => void;
  city: string;
  category?: string;
  id: string;
  placeholder?: string;
  /** Drawn by its container (the home page's hero), without the input's own frame. */
  bare?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [sugg, setSugg] = useState<Suggestions | null>(null);
  const [recent, setRecent] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>();

  useEffect(() => {
    if (!open) return;
    const q = value.trim();
    if (!q) {
      setRecent(recentSearches());
      return;
    }
    const ctl = new AbortController();
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      getSuggestions(q, city === ALL_IRAN ? undefined : city, ctl.signal)
        .then((s) => {
          setSugg(s);
          setActive(-1);
        })
        .catch(() => {
          /* suggestions are a help: a failure leaves the box as it is */
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer.current);
      ctl.abort();
    };
  }, [value, city, open]);

  const options = open ? optionsOf(sugg, recent, value) : [];

  const pick = (o: Option) => {
    setOpen(false);
    switch (o.kind) {
      case 'recent':
        onValue(o.text);
        onSubmit(o.text);
        return;
      case 'category':
        rememberSearch(value);
        navigate(urlFromFilters({ city, category: o.place.slag, page: 1 }));
        return;
      case 'city':
        navigate(urlFromFilters({ city: o.place.slag, category, page: 1 }));
        return;
      case 'profile':
        navigate(`/profile/${encodeURIComponent(o.slug)}`);
    }
  };

  const label = (o: Option) => {
    switch (o.kind) {
      case 'recent':
        return o.text;
      case 'category':
      case 'city':
        return localName(o.place, lang);
      case 'profile':
        return o.name;
    }
  };

  return (
    <div class="searchbox">
      <input
        id={id}
        class={bare ? undefined : 'input'}
        type="search"
        role="combobox"
        autocomplete="off"
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-activedescendant={active >= 0 && active < options.length ? `${listId}-${active}` : undefined}
        value={value}
        placeholder={placeholder}
        enterkeyhint="search"
        onInput={(e) => {
          onValue((e.target as HTMLInputElement).value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && options.length) {
            e.preventDefault();
            setOpen(true);
            setActive((a) => (a + 1) % options.length);
          } else if (e.key === 'ArrowUp' && options.length) {
            e.preventDefault();
            setActive((a) => (a <= 0 ? options.length - 1 : a - 1));
          } else if (e.key === 'Escape') {
            setOpen(false);
            setActive(-1);
          } else if (e.key === 'Enter' && active >= 0 && active < options.length) {
            e.preventDefault();
            pick(options[active]);
          } else if (e.key === 'Enter') {
            rememberSearch(value);
            setOpen(false);
          }
        }}
      />
      {options.length > 0 && (
        <div id={listId} role="listbox" class="searchbox-list card" aria-label={t('suggest.label')}>
          {options.map((o, i) => (
            <div
              key={`${o.kind}-${label(o)}-${i}`}
              id={`${listId}-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              class={`searchbox-option ${i === active ? 'is-active' : ''}`}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(o);
              }}
            >
              <Icon name={o.kind === 'city' ? 'pin' : o.kind === 'profile' ? 'user' : o.kind === 'recent' ? 'clock' : 'search'} size={16} />
              <span dir="auto">{label(o)}</span>
              <span class="muted small searchbox-kind">
                {o.kind === 'profile' && o.city ? localName(o.city, lang) : t(`suggest.kind.${o.kind}`)}
              </span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
