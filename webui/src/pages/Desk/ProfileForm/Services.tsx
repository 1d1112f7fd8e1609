import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { PriceInput } from '../../../components/PriceInput';
import { Switch } from '../../../components/Switch';
import { addService, MAX_SERVICES, moveRow, patchRow, removeRow, type ServiceRow } from '../../../lib/profileForm';
import { formatPrice } from '../../../lib/format';
import { localDigits } from '../../../lib/digits';
import type { TabProps } from './shared';

export default function Services({ form, update, err }: TabProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const rows = form.services;
  // Row changes read the rows they are applied to, not this render's copy, and find their row
  // there by key: two taps before a render both count, each on the row tapped.
  const setRow = (r: ServiceRow, i: number, patch: Partial<ServiceRow>) =>
    update((f) => ({ ...f, services: patchRow(f.services, r.key, patch) }), [`services.${i}`, 'services']);
  const setAll = (fn: (rows: ServiceRow[]) => ServiceRow[]) => update((f) => ({ ...f, services: fn(f.services) }), ['services']);

  return (
    <div>
      {err('services') && (
        <p class="form-error" role="alert">
          {err('services')}
        </p>
      )}
      <ol class="rows" role="list">
        {rows.map((s, i) => {
          const n = localDigits(i + 1, lang);
          const titleErr = err(`services.${i}.title`);
          const priceErr = err(`services.${i}.price`);
          return (
            <li key={s.key} class="row-card">
              <div class="row-head">
                <span class="row-num" aria-hidden="true">
                  {n}
                </span>
                <strong class="row-title" dir="auto">
                  {s.title.trim() || t('deskForm.services.untitled', { n })}
                </strong>
                <span class="row-price small muted">{s.free || s.price ? formatPrice(s.free ? 0 : s.price, lang, { toman: t('price.toman'), free: t('price.free') }) : ''}</span>
                <div class="row-tools">
                  <button type="button" class="icon-btn" aria-label={t('deskForm.moveUp', { n })} disabled={i === 0} onClick={() => setAll((all) => moveRow(all, s.key, -1))}>
                    <Icon name="up" size={18} />
                  </button>
                  <button type="button" class="icon-btn" aria-label={t('deskForm.moveDown', { n })} disabled={i === rows.length - 1} onClick={() => setAll((all) => moveRow(all, s.key, 1))}>
                    <Icon name="down" size={18} />
                  </button>
                  <button type="button" class="icon-btn danger-text" aria-label={t('deskForm.services.remove', { n })} onClick={() => setAll((all) => removeRow(all, s.key))}>
                    <Icon name="trash" size={18} />
                  </button>
                </div>
              </div>
              <div class="row-body svc-body">
                <div class="field svc-title">
                  <label for={`pf-svc-${i}-title`}>{t('deskForm.labels.serviceTitle')}</label>
                  <input
                    id={`pf-svc-${i}-title`}
                    dir="auto"
                    class="input"
                    value={s.title}
                    maxLength={100}
                    aria-invalid={!!titleErr}
                    aria-describedby={titleErr ? `pf-svc-${i}-title-err` : undefined}
                    onInput={(e) => setRow(s, i, { title: (e.target as HTMLInputElement).value })}
                    placeholder={t('deskForm.services.titlePlaceholder')}
                  />
                  {titleErr && (
                    <span class="field-error" id={`pf-svc-${i}-title-err`}>
                      {titleErr}
                    </span>
                  )}
                </div>
                <div class="field svc-price">
                  <label for={`pf-svc-${i}-price`}>{t('deskForm.labels.price')}</label>
                  {s.free ? (
                    <div class="input price-free" id={`pf-svc-${i}-price`}>
                      {t('price.free')}
                    </div>
                  ) : (
                    <div class="price-wrap">
                      <PriceInput
                        id={`pf-svc-${i}-price`}
                        value={s.price}
                        lang={lang}
                        onChange={(v) => setRow(s, i, { price: v })}
                        invalid={!!priceErr}
                        describedBy={priceErr ? `pf-svc-${i}-price-err` : undefined}
                        placeholder={lang === 'fa' ? '۳۵۰٬۰۰۰' : '350,000'}
                      />
                      <span class="price-unit" aria-hidden="true">
                        {t('price.toman')}
                      </span>
                    </div>
                  )}
                  <Switch checked={s.free} onChange={(v) => setRow(s, i, { free: v })} label={t('deskForm.services.free')} />
                  {priceErr && (
                    <span class="field-error" id={`pf-svc-${i}-price-err`}>
                      {priceErr}
                    </span>
                  )}
                </div>
                <div class="field svc-desc">
                  <label for={`pf-svc-${i}-desc`}>{t('deskForm.labels.serviceDescription')}</label>
                  <textarea
                    id={`pf-svc-${i}-desc`}
                    dir="auto"
                    class="textarea"
                    rows={2}
                    maxLength={500}
                    value={s.description}
                    onInput={(e) => setRow(s, i, { description: (e.target as HTMLTextAreaElement).value })}
                    placeholder={t('deskForm.services.descPlaceholder')}
                  />
                </div>
              </div>
            </li>
          );
        })}
      </ol>
      {rows.length === 0 && <p class="muted">{t('deskForm.services.none')}</p>}
      <button
        type="button"
        class="btn btn-outline add-row"
        disabled={rows.length >= MAX_SERVICES}
        onClick={() => {
          update(addService, ['services']);
          // The last row's title, whatever rows a quick second tap added meanwhile.
          setTimeout(() => {
            const titles = document.querySelectorAll<HTMLInputElement>('.svc-title input');
            titles[titles.length - 1]?.focus();
          }, 30);
        }}
      >
        <Icon name="plus" size={18} />
        {t('deskForm.services.add')}
      </button>
    </div>
  );
}
