import { useTranslation } from '../i18n';
import { dismissToast, toastStore } from '../state/toast';
import { useStore } from '../state/store';
import { Icon } from './Icon';

export function Toaster() {
  const list = useStore(toastStore);
  const { t } = useTranslation();
  return (
    <div class="toasts" aria-live="polite" aria-atomic="false">
      {list.map((m) => (
        <div key={m.id} class={`toast toast-${m.kind}`} role={m.kind === 'error' ? 'alert' : 'status'}>
          <Icon name={m.kind === 'error' ? 'alert' : m.kind === 'success' ? 'check' : 'info'} />
          <p>{m.text}</p>
          <button type="button" onClick={() => dismissToast(m.id)} aria-label={t('common.close')}>
            <Icon name="close" size={18} />
          </button>
        </div>
      ))}
    </div>
  );
}
