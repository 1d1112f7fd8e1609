import { useState } from 'preact/hooks';
import { useTranslation } from '../i18n';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import './verified.css';

/**
 * The verified badge. On a card it is a plain mark (the card is one link); on the profile it is
 * a button that opens what "verified" means, so nobody reads more into it than was checked.
 */
export function VerifiedBadge({ explain }: { explain?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!explain)
    return (
      <span class="badge badge-plain verified-badge" title={t('verified.short')}>
        <Icon name="shield" size={14} />
        {t('verified.badge')}
      </span>
    );
  return (
    <>
      <button type="button" class="badge badge-plain verified-badge verified-btn" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <Icon name="shield" size={14} />
        {t('verified.badge')}
        <Icon name="info" size={14} />
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t('verified.title')}>
        <div class="verified-explain">
          <p>{t('verified.intro')}</p>
          <ul>
            <li>{t('verified.phone')}</li>
            <li>{t('verified.admin')}</li>
            <li>{t('verified.edits')}</li>
          </ul>
          <p class="muted small">{t('verified.limits')}</p>
        </div>
      </Dialog>
    </>
  );
}
