import { useState } from 'preact/hooks';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { CONTACT_TYPES, checkLink, linkExample, linkKind, type LinkKind } from '../../../lib/contactCheck';

// Plain labels by what the link is ("Mobile number", "Instagram: username or link"), REVIEW #25.
const LINK_LABEL: Record<LinkKind, string> = {
  phone: 'linkNumber',
  mobile: 'linkNumber',
  email: 'linkAddress',
  site: 'linkAddress',
  handle: 'linkAccount',
  messenger: 'linkMessenger',
  any: 'linkText',
};
import { contactKind, contactLink } from '../../../lib/links';
import { addContact, MAX_LINKS, moveRow, patchRow, removeRow, type ContactRow } from '../../../lib/profileForm';
import { afterPress } from '../../../lib/afterPress';
import { contactDigits, contactDigitsInput, localDigits, localDigitsInput, toLatinDigits } from '../../../lib/digits';
import type { TabProps } from './shared';

export default function Contact({ form, update, err }: TabProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const rows = form.social_network;
  const [touched, setTouched] = useState<Set<string>>(new Set());
  // Row changes read the rows they are applied to, not this render's copy, and find their row
  // there by key: two taps before a render both count, each on the row tapped.
  const setRow = (r: ContactRow, i: number, patch: Partial<ContactRow>) =>
    update((f) => ({ ...f, social_network: patchRow(f.social_network, r.key, patch) }), [`social_network.${i}`, 'social_network']);
  const setAll = (fn: (rows: ContactRow[]) => ContactRow[]) => update((f) => ({ ...f, social_network: fn(f.social_network) }), ['social_network']);
  const typeName = (type: string) => t(`contact.types.${contactKind(type)}`, { defaultValue: type });

  return (
    <div>
      {err('social_network') && (
        <p class="form-error" role="alert">
          {err('social_network')}
        </p>
      )}
      <ol class="rows" role="list">
        {rows.map((r, i) => {
          const n = localDigits(i + 1, lang);
          // Checked as typed once the field has been left (or saved) the first time; an empty one only when saving.
          const live = r.link.trim() ? checkLink(r.type, r.link) : null;
          const shown = live && (touched.has(r.key) || err(`social_network.${i}.link`)) ? t(`deskForm.linkErrors.${live}`, { type: typeName(r.type) }) : err(`social_network.${i}.link`);
          const ok = !!r.link.trim() && !live;
          const icon = contactLink(r.type, r.link).icon;
          // A phone or mobile number reads in the language's digits, the account's own prefilled
          // mobile included (REVIEW #29), and so does a messenger's (WhatsApp, Telegram) when it is
          // a number and not a handle; the form keeps them in Latin ones, as the API takes them.
          const kind = linkKind(r.type);
          const numeric = kind === 'mobile' || kind === 'phone';
          const messenger = kind === 'messenger';
          return (
            <li key={r.key} class="row-card contact-row">
              <div class="contact-fields">
                <div class="field contact-type">
                  <label for={`pf-link-${i}-type`}>{t('deskForm.labels.contactType', { n })}</label>
                  <div class="icon-select">
                    <span class="icon-select-icon" aria-hidden="true">
                      <Icon name={icon} size={20} />
                    </span>
                    <select id={`pf-link-${i}-type`} class="select" value={r.type} onChange={(e) => setRow(r, i, { type: (e.target as HTMLSelectElement).value })}>
                      {CONTACT_TYPES.map((c) => (
                        <option key={c.type} value={c.type}>
                          {typeName(c.type)}
                        </option>
                      ))}
                    </select>
                  </div>
                </div>
                <div class="field contact-link">
                  <label for={`pf-link-${i}`}>{t(`deskForm.labels.${LINK_LABEL[linkKind(r.type) ?? 'any']}`, { type: typeName(r.type) })}</label>
                  <div class="link-wrap" dir="ltr">
                    <input
                      id={`pf-link-${i}`}
                      class="input"
                      dir="ltr"
                      value={numeric ? localDigits(toLatinDigits(r.link), lang) : messenger ? contactDigits(r.link, lang) : r.link}
                      placeholder={numeric || messenger ? localDigits(linkExample(r.type), lang) : linkExample(r.type)}
                      inputMode={['mobile', 'phone', 'fax'].includes(r.type) ? 'tel' : r.type === 'Email' ? 'email' : 'text'}
                      autocomplete="off"
                      aria-invalid={!!shown}
                      aria-describedby={shown ? `pf-link-${i}-err` : undefined}
                      onInput={(e) => {
                        const el = e.target as HTMLInputElement;
                        setRow(r, i, { link: numeric ? localDigitsInput(el, lang) : messenger ? contactDigitsInput(el, lang) : el.value });
                      }}
                      // Shown once the press that left the field is over: an error appearing
                      // under a pressed "add" would move the button away from the finger.
                      onBlur={() => {
                        const key = r.key;
                        afterPress(() => setTouched((was) => (was.has(key) ? was : new Set(was).add(key))));
                      }}
                    />
                    {ok && (
                      <span class="link-ok" aria-hidden="true">
                        <Icon name="check" size={18} />
                      </span>
                    )}
                  </div>
                  {shown && (
                    <span class="field-error" id={`pf-link-${i}-err`} role="alert">
                      {shown}
                    </span>
                  )}
                </div>
              </div>
              <div class="row-tools">
                <button type="button" class="icon-btn" aria-label={t('deskForm.moveUp', { n })} disabled={i === 0} onClick={() => setAll((all) => moveRow(all, r.key, -1))}>
                  <Icon name="up" size={18} />
                </button>
                <button type="button" class="icon-btn" aria-label={t('deskForm.moveDown', { n })} disabled={i === rows.length - 1} onClick={() => setAll((all) => moveRow(all, r.key, 1))}>
                  <Icon name="down" size={18} />
                </button>
                <button type="button" class="icon-btn danger-text" aria-label={t('deskForm.contact.remove', { n })} onClick={() => setAll((all) => removeRow(all, r.key))}>
                  <Icon name="trash" size={18} />
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      {rows.length === 0 && <p class="muted">{t('deskForm.contact.none')}</p>}
      <button
        type="button"
        class="btn btn-outline add-row"
        disabled={rows.length >= MAX_LINKS}
        onClick={() => {
          update(addContact, ['social_network']);
          // The last row's field, whatever rows a quick second tap added meanwhile.
          setTimeout(() => {
            const links = document.querySelectorAll<HTMLInputElement>('.contact-row .contact-link input');
            links[links.length - 1]?.focus();
          }, 30);
        }}
      >
        <Icon name="plus" size={18} />
        {t('deskForm.contact.add')}
      </button>
    </div>
  );
}
