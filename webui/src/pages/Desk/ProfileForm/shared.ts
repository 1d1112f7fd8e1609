import type { CategoryNode } from '../../../api/types';
import type { ProfileFormState } from '../../../lib/profileForm';

export interface TabProps {
  form: ProfileFormState;
  /** Changes the form; `touched` names the fields whose errors the change clears. */
  update: (fn: (f: ProfileFormState) => ProfileFormState, touched?: string[]) => void;
  /** The message of a field's error in the current language, if any. */
  err: (field: string) => string | undefined;
  tree: CategoryNode[] | null;
  treeError: string;
  reloadTree: () => void;
}
