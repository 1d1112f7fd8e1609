import { useEffect, useMemo, useState } from 'preact/hooks';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import { getCities, getNearestCity, getProvinces, type City, type Province } from '../api';
import { localName, useTranslation } from '../i18n';
import { learnCity, rememberCity, type KnownCity } from '../lib/cityMemory';
import { toast } from '../state/toast';
import { useLoad } from '../lib/useLoad';
import { collator } from '../lib/intl';
import { Loading, ErrorState } from './StateViews';

/** Normalises Persian/Arabic letter variants and spaces so a typed filter finds names. */
export function fold(s: string): string {
  return s
    .toLowerCase()
    .replace(/[يى]/g, 'ی')
    .replace(/ك/g, 'ک')
    .replace(/[\u200c\u064b-\u065f\s-]/g, '');
}

export function locate(): Promise<{ lat: number; long: number }> {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) return reject(new Error('no geolocation'));
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, long: p.coords.longitude }),
      reject,
      { enableHighAccuracy: false, timeout: 10000, maximumAge: 300000 },
    );
  });
}

interface Props {
  open: boolean;
  onClose: () => void;
  onSelect: (city: KnownCity | null, province?: Province | null) => void;
  allowProvince?: boolean;
}

/** Province then city (its capital first, then alphabetical), with a filter box that also finds
 * former names, "all of Iran", "use my position", and the whole province when allowProvince. */
export function CityPicker({ open, onClose, onSelect, allowProvince }: Props) {
  const { t, i18n } = useTranslation();
  const [province, setProvince] = useState<Province | null>(null);
  const [filter, setFilter] = useState('');
  const [locating, setLocating] = useState(false);

  // The lists load through useLoad: a late answer for the province chosen before is dropped.
  const provincesLoad = useLoad(() => getProvinces().then((p) => p ?? []), [], { enabled: open, progress: false });
  const citiesLoad = useLoad(
    () => getCities(province!.id).then((c) => (c ?? []).map((x) => ({ ...x, province_id: x.province_id ?? province!.id }))),
    [province?.id],
    { enabled: open && !!province, clearOnChange: true, progress: false },
  );
  const provinces = provincesLoad.data ?? null;
  const cities = citiesLoad.data ?? null;
  const shown = province ? citiesLoad : provincesLoad;
  const error = shown.status !== 'error' ? '' : province ? (shown.error?.message ?? '') : t('errors.provinces');

  useEffect(() => {
    if (!open) {
      setFilter('');
      setProvince(null);
    }
  }, [open]);

  // The province's capital first, then the rest in the alphabet of the page's language (Persian
  // collation orders پ چ ژ گ where a reader expects them, unlike code points).
  const items = useMemo(() => {
    const list: (Province | City)[] = (province ? cities : provinces) ?? [];
    // A closed picker (on every page's search bar) has no list: no collator is built for it.
    if (!list.length) return list;
    const f = fold(filter);
    const order = collator(i18n.language === 'fa' ? 'fa' : 'en');
    const sorted = [...list].sort(
      (a, b) =>
        Number(Boolean((b as City).capital)) - Number(Boolean((a as City).capital)) ||
        order.compare(localName(a, i18n.language), localName(b, i18n.language)),
    );
    if (!f) return sorted;
    // A city is found by its former names too (Zaboli finds Mehrestan).
    return sorted.filter(
      (x) =>
        fold(x.farsi_name).includes(f) ||
        fold(x.english_name).includes(f) ||
        ((x as City).aliases ?? []).some((a) => fold(a).includes(f)),
    );
  }, [province, cities, provinces, filter, i18n.language]);

  const choose = (c: KnownCity | null, p?: Province | null) => {
    rememberCity(c);
    onSelect(c, p ?? null);
    onClose();
  };

  const useMyPosition = async () => {
    setLocating(true);
    try {
      const pos = await locate();
      const c = await getNearestCity(pos.lat, pos.long);
      if (!c?.slag) throw new Error('none');
      learnCity(c);
      choose(c);
    } catch {
      toast(t('errors.position'), 'error');
    } finally {
      setLocating(false);
    }
  };

  const title = province ? t('city.pickCity', { province: localName(province, i18n.language) }) : t('city.pickProvince');

  return (
    <Dialog open={open} onClose={onClose} title={title} class="picker">
      <div class="picker-top">
        {province ? (
          <button type="button" class="btn btn-ghost btn-sm" onClick={() => {
              setProvince(null);
              setFilter('');
            }}>
            <Icon name="chevron" size={16} class="flip-back" />
            {t('city.backToProvinces')}
          </button>
        ) : (
          <div class="picker-quick">
            <button type="button" class="btn btn-outline btn-sm" onClick={() => choose(null)}>
              <Icon name="globe" size={16} />
              {t('city.allIran')}
            </button>
            <button type="button" class="btn btn-outline btn-sm" onClick={useMyPosition} disabled={locating}>
              {locating ? <span class="spinner" aria-hidden="true" /> : <Icon name="locate" size={16} />}
              {t('city.useMyPosition')}
            </button>
          </div>
        )}
        <label class="visually-hidden" for="picker-filter">
          {province ? t('city.filterCities') : t('city.filterProvinces')}
        </label>
        <input
          id="picker-filter"
          class="input"
          type="search"
          value={filter}
          placeholder={province ? t('city.filterCities') : t('city.filterProvinces')}
          onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
          autocomplete="off"
        />
      </div>
      {error ? (
        <ErrorState message={error} onRetry={shown.reload} />
      ) : (province ? cities : provinces) === null ? (
        <Loading />
      ) : (
        <ul class="picker-list" role="list">
          {province && allowProvince && (
            <li>
              <button type="button" class="picker-item strong" onClick={() => choose(null, province)}>
                {t('city.allOfProvince', { province: localName(province, i18n.language) })}
              </button>
            </li>
          )}
          {items.map((x) => (
            <li key={x.id}>
              <button
                type="button"
                class="picker-item"
                onClick={() => {
                  if (province) choose(x as City, province);
                  else {
                    setProvince(x as Province);
                    setFilter('');
                  }
                }}
              >
                <span>{localName(x, i18n.language)}</span>
                {province && (x as City).capital && (
                  <span class="picker-tag" aria-hidden="true">
                    {t('city.capital')}
                  </span>
                )}
                {!province && <Icon name="chevron" size={16} class="flip-rtl" />}
              </button>
            </li>
          ))}
          {items.length === 0 && <li class="muted picker-empty">{t('errors.noItems')}</li>}
        </ul>
      )}
    </Dialog>
  );
}
