import { lazy, Suspense } from 'preact/compat';
import { useCallback, useMemo, useState } from 'preact/hooks';
import { FormField } from '../../../components/FormField';
import { SearchSelect, type Option } from '../../../components/SearchSelect';
import { ChipsInput } from '../../../components/ChipsInput';
import { Icon } from '../../../components/Icon';
import { locate } from '../../../components/CityPicker';
import { getCities, getConfig, getNearestCity, getProvinces, type City, type Named } from '../../../api';
import { localName, useTranslation } from '../../../i18n';
import { MAX_ADDRESS } from '../../../lib/profileForm';
import { formatCoord } from '../../../lib/format';
import { useLoad } from '../../../lib/useLoad';
import { toast } from '../../../state/toast';
import type { TabProps } from './shared';

const PinMap = lazy(() => import('../../../components/LeafletMap/PinMap'));

/** Tehran, where the map opens when nothing else is known. */
const FALLBACK = { lat: 35.6892, lng: 51.389 };
/** A pin farther than this from a newly chosen city's centre is dropped (it belonged to the old city). */
const FAR_KM = 60;

function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const r = (x: number) => (x * Math.PI) / 180;
  const h = Math.sin(r(b.lat - a.lat) / 2) ** 2 + Math.cos(r(a.lat)) * Math.cos(r(b.lat)) * Math.sin(r(b.lng - a.lng) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

function opt(x: Named | null, lang: string): Option | null {
  return x ? { id: x.id, label: localName(x, lang), alt: lang === 'fa' ? x.english_name : x.farsi_name } : null;
}

export default function Place({ form, update, err }: TabProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const config = useLoad(() => getConfig(), [], { progress: false });
  const tiles = config.data?.tiles;
  const [locating, setLocating] = useState(false);
  const [showMap, setShowMap] = useState(true);

  const provinceId = form.province?.id;
  // Cities of the chosen province: a late answer for the one chosen before is dropped (useLoad).
  const citiesOf = useLoad(() => getCities(provinceId!), [provinceId], { enabled: !!provinceId, clearOnChange: true, progress: false });
  const cities: City[] = citiesOf.data ?? [];

  const loadProvinces = useCallback(
    () => getProvinces().then((ps) => (ps ?? []).map((p) => opt(p, lang)!)),
    [lang],
  );
  const loadCities = useMemo(
    () => (provinceId ? () => getCities(provinceId).then((cs) => (cs ?? []).map((c) => opt(c, lang)!)) : null),
    [provinceId, lang],
  );

  const cityFull = cities.find((c) => c.id === form.city?.id);
  const center = form.location
    ? { lat: form.location.lat, lng: form.location.long }
    : cityFull?.lat && cityFull?.long
      ? { lat: cityFull.lat, lng: cityFull.long }
      : FALLBACK;

  const chooseProvince = (o: Option) =>
    getProvinces().then((ps) => {
      const p = ps.find((x) => x.id === o.id) ?? null;
      update((f) => ({ ...f, province: p, city: f.province?.id === p?.id ? f.city : null }), ['province', 'city']);
    });

  const chooseCity = (o: Option) => {
    const c = cities.find((x) => x.id === o.id);
    if (!c) return;
    update((f) => {
      let location = f.location;
      if (location && c.lat && c.long && km({ lat: location.lat, lng: location.long }, { lat: c.lat, lng: c.long }) > FAR_KM) location = null;
      return { ...f, city: { id: c.id, farsi_name: c.farsi_name, english_name: c.english_name, slag: c.slag }, location };
    }, ['city', 'location']);
  };

  const useMyPosition = async () => {
    setLocating(true);
    try {
      const pos = await locate();
      const c = await getNearestCity(pos.lat, pos.long);
      if (!c?.id) throw new Error('none');
      const ps = await getProvinces();
      const p = ps.find((x) => x.id === c.province_id) ?? null;
      update(
        (f) => ({
          ...f,
          province: p ?? f.province,
          city: { id: c.id, farsi_name: c.farsi_name, english_name: c.english_name, slag: c.slag },
          location: { lat: pos.lat, long: pos.long },
        }),
        ['province', 'city', 'location'],
      );
      toast(t('deskForm.place.found', { city: localName(c, lang) }), 'success');
    } catch {
      toast(t('errors.position'), 'error');
    } finally {
      setLocating(false);
    }
  };

  const setPin = (p: { lat: number; lng: number }) =>
    update((f) => ({ ...f, location: { lat: Math.round(p.lat * 1e6) / 1e6, long: Math.round(p.lng * 1e6) / 1e6 } }), ['location']);

  return (
    <div class="pf-grid">
      <div class="span-2 place-locate">
        <button type="button" class="btn btn-outline" onClick={useMyPosition} disabled={locating}>
          {locating ? <span class="spinner" aria-hidden="true" /> : <Icon name="locate" size={18} />}
          {t('city.useMyPosition')}
        </button>
        <span class="small muted">{t('deskForm.place.locateHint')}</span>
      </div>
      <SearchSelect
        id="pf-province_id"
        label={t('deskForm.labels.province_id')}
        placeholder={t('deskForm.place.chooseProvince')}
        filterLabel={t('city.filterProvinces')}
        value={opt(form.province, lang)}
        load={loadProvinces}
        onChange={chooseProvince}
        error={err('province_id')}
      />
      <SearchSelect
        id="pf-city_id"
        label={t('deskForm.labels.city_id')}
        placeholder={form.province ? t('deskForm.place.chooseCity') : t('deskForm.place.provinceFirst')}
        filterLabel={t('city.filterCities')}
        value={opt(form.city, lang)}
        load={loadCities}
        onChange={chooseCity}
        error={err('city_id')}
      />
      <div class="field span-2">
        <div class="pin-head">
          <span class="field-label" id="pf-location-label">
            {t('deskForm.labels.location')}
          </span>
          <button type="button" class="link-btn" aria-expanded={showMap} aria-controls="pf-map" onClick={() => setShowMap(!showMap)}>
            {showMap ? t('deskForm.place.hideMap') : t('deskForm.place.showMap')}
          </button>
        </div>
        {showMap && (
          <div id="pf-map" class="pin-wrap">
            <Suspense fallback={<div class="kd-map pin-map skeleton" />}>
              <PinMap
                tiles={tiles}
                attribution={t('map.attribution')}
                center={center}
                zoom={form.city ? 13 : 6}
                value={form.location ? { lat: form.location.lat, lng: form.location.long } : null}
                onChange={setPin}
                label={t('deskForm.place.mapLabel')}
                markerLabel={t('deskForm.place.pin')}
              />
            </Suspense>
          </div>
        )}
        <div class="pin-foot">
          <span class="small muted" id="pf-location-hint">
            {form.location
              ? t('deskForm.place.pinAt', { lat: formatCoord(form.location.lat, lang), long: formatCoord(form.location.long, lang) })
              : t('deskForm.place.noPin')}
          </span>
          {form.location && (
            <button type="button" class="btn btn-ghost btn-sm" onClick={() => update((f) => ({ ...f, location: null }), ['location'])}>
              <Icon name="close" size={16} />
              {t('deskForm.place.removePin')}
            </button>
          )}
        </div>
        {err('location') && <span class="field-error">{err('location')}</span>}
      </div>
      <FormField
        id="pf-address"
        label={t('deskForm.labels.address')}
        value={form.address}
        onInput={(v) => update((f) => ({ ...f, address: v }), ['address'])}
        error={err('address')}
        textarea
        rows={2}
        maxLength={MAX_ADDRESS}
        counter
        class="span-2"
      />
      <div class="span-2">
        <ChipsInput
          id="pf-area_working"
          label={t('deskForm.labels.area_working')}
          values={form.area_working}
          onChange={(v) => update((f) => ({ ...f, area_working: v }), ['area_working'])}
          placeholder={t('deskForm.place.areaPlaceholder')}
          hint={t('deskForm.hints.areas')}
          error={err('area_working')}
          max={30}
        />
      </div>
    </div>
  );
}
