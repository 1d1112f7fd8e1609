import { useState } from 'preact/hooks';
import { Link } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { readableUrl, shareTargets } from '../../lib/links';
import { toast } from '../../state/toast';

const ICONS: Record<string, string> = { telegram: 'telegram', whatsapp: 'whatsapp', eitaa: 'eitaa', bale: 'bale' };

/**
 * Shares with the phone's own share sheet where the browser has one (every app the user has, not
 * just four); elsewhere, or when the sheet cannot open, `fallback` opens the share dialog. Closing
 * the sheet without choosing is not a failure.
 */
export async function shareProfile(url: string, title: string, fallback: () => void) {
  const nav = navigator as Navigator & { share?: (d: ShareData) => Promise<void>; canShare?: (d: ShareData) => boolean };
  const data = { title, url };
  if (typeof nav.share !== 'function' || (nav.canShare && !nav.canShare(data))) {
    fallback();
    return;
  }
  try {
    await nav.share(data);
  } catch (e) {
    if ((e as Error)?.name !== 'AbortError') fallback();
  }
}

/** Copies text without the async clipboard (older browsers, or a page not allowed to use it). */
function copyByCommand(text: string) {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'visually-hidden';
  document.body.appendChild(area);
  area.select();
  document.execCommand?.('copy');
  area.remove();
}

/**
 * `url` is the encoded link: that is what is copied and shared (it survives every app it is pasted
 * into); the field shows it decoded, so a Persian slug reads as words rather than %D9%84….
 */
export function ShareDialog({
  open,
  onClose,
  url,
  title,
  profileId,
}: { open: boolean; onClose: () => void; url: string; title: string; profileId?: number }) {
  const { t } = useTranslation();
  // The links are built when it opens: a profile draws this dialog closed, with its first screen.
  return (
    <Dialog open={open} onClose={onClose} title={t('share.title')}>
      {open && <ShareLinks url={url} title={title} profileId={profileId} />}
    </Dialog>
  );
}

function ShareLinks({ url, title, profileId }: { url: string; title: string; profileId?: number }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const shown = readableUrl(url);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      copyByCommand(url);
    }
    setCopied(true);
    toast(t('share.copied'), 'success');
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <>
      <label class="field-label" for="share-url">
        {t('share.link')}
      </label>
      <div class="input-with-btn">
        <input
          id="share-url"
          class="input ltr"
          readOnly
          value={shown}
          onFocus={(e) => (e.target as HTMLInputElement).select()}
          onCopy={(e) => {
            // Copying the whole field by hand gives the encoded link too.
            const input = e.target as HTMLInputElement;
            if (input.selectionStart === 0 && input.selectionEnd === shown.length && e.clipboardData) {
              e.clipboardData.setData('text/plain', url);
              e.preventDefault();
            }
          }}
        />
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
      {profileId !== undefined && (
        <div class="share-more">
          <Link class="btn btn-outline" to={`/poster/${profileId}`}>
            <Icon name="qr" size={18} />
            {t('share.poster')}
          </Link>
        </div>
      )}
    </>
  );
}
