import type { Profile } from '../api/types';
import { useTranslation } from '../i18n';
import { isSaved, toggleSaved, useSaved, type SavedCard } from '../state/saved';
import { toast } from '../state/toast';
import { Icon } from './Icon';

/** The heart: saves a business on this device, and on the account when signed in. */
export function SaveButton({ p, compact }: { p: Profile | SavedCard; compact?: boolean }) {
  const { t } = useTranslation();
  const saved = isSaved(useSaved(), p.id);
  const label = t(saved ? 'saved.remove' : 'saved.add', { name: p.profile_name });
  const onClick = async (e: Event) => {
    e.preventDefault();
    e.stopPropagation();
    try {
      const on = await toggleSaved(p);
      if (!compact) toast(t(on ? 'saved.added' : 'saved.removed'), 'success');
    } catch (err) {
      toast((err as Error)?.message || t('saved.failed'), 'error');
    }
  };
  return compact ? (
    <button type="button" class="icon-btn save-btn" aria-pressed={saved} aria-label={label} title={label} onClick={onClick}>
      <Icon name="heart" size={20} />
    </button>
  ) : (
    <button type="button" class="btn btn-outline save-btn" aria-pressed={saved} aria-label={label} onClick={onClick}>
      <Icon name="heart" size={18} />
      {t(saved ? 'saved.savedShort' : 'saved.saveShort')}
    </button>
  );
}
