import { useState } from 'preact/hooks';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { shareTargets } from '../../lib/links';
import { toast } from '../../state/toast';

const ICONS: Record<string, string> = { telegram: 'telegram', whatsapp: 'whatsapp', eitaa: 'chat', bale: 'chat' };

export function ShareDialog({ open, onClose, url, title }: { open: boolean; onClose: () => void; url: string; title: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      const input = document.getElementById('share-url') as HTMLInputElement | null;
      input?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
    toast(t('share.copied'), 'success');
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <Dialog open={open} onClose={onClose} title={t('share.title')}>
      <label class="field-label" for="share-url">
        {t('share.link')}
      </label>
      <div class="input-with-btn">
        <input id="share-url" class="input ltr" readOnly value={url} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <button type="button" class="btn btn-primary" onClick={copy}>
          <Icon name={copied ? 'check' : 'copy'} size={18} />
          {copied ? t('share.copiedShort') : t('share.copy')}
        </button>
      </div>
      <ul class="share-grid" role="list">
        {shareTargets(url, title).map((s) => (
          <li key={s.name}>
            <a class={`share-item share-${s.name}`} href={s.href} target="_blank" rel="noopener noreferrer">
              <span class="share-icon">
                <Icon name={ICONS[s.name]} size={22} />
              </span>
              {t(`share.${s.name}`)}
            </a>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
