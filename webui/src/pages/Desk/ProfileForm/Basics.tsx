import { useTranslation } from '../../../i18n';
import { FormField } from '../../../components/FormField';
import { TreePicker } from '../../../components/TreePicker';
import { MAX_DESCRIPTION, MAX_NAME } from '../../../lib/profileForm';
import { localDigits, toLatinDigits } from '../../../lib/digits';
import type { TabProps } from './shared';

export default function Basics({ form, update, err, tree, treeError, reloadTree }: TabProps) {
  const { t, i18n } = useTranslation();
  const set = (k: 'profile_name' | 'work_history_years' | 'descriotion') => (v: string) => update((f) => ({ ...f, [k]: v }), [k]);
  return (
    <div class="pf-grid">
      <FormField
        id="pf-profile_name"
        label={t('deskForm.labels.profile_name')}
        value={form.profile_name}
        onInput={set('profile_name')}
        error={err('profile_name')}
        hint={t('deskForm.hints.profile_name')}
        maxLength={MAX_NAME}
        required
        class="span-2"
      />
      <div class="span-2">
        <TreePicker
          id="pf-range_worker"
          label={t('deskForm.labels.fieldAndCategories')}
          mode="field"
          tree={tree}
          loadError={treeError}
          onRetry={reloadTree}
          value={{ field: form.range_worker, categories: form.category_list }}
          onChange={(v) => update((f) => ({ ...f, range_worker: v.field, category_list: v.categories }), ['range_worker', 'category_list'])}
          error={[err('range_worker'), err('category_list')].filter(Boolean).join(' · ') || undefined}
          hint={t('deskForm.hints.categories')}
        />
      </div>
      <FormField
        id="pf-work_history_years"
        label={t('deskForm.labels.work_history_years')}
        value={localDigits(toLatinDigits(form.work_history_years), i18n.language)}
        onInput={set('work_history_years')}
        error={err('work_history_years')}
        inputMode="numeric"
        dir="ltr"
        class="narrow"
        hint={t('deskForm.hints.years')}
      />
      <FormField
        id="pf-descriotion"
        label={t('deskForm.labels.descriotion')}
        value={form.descriotion}
        onInput={set('descriotion')}
        error={err('descriotion')}
        textarea
        rows={7}
        maxLength={MAX_DESCRIPTION}
        counter
        hint={t('deskForm.hints.descriotion')}
        class="span-2"
      />
    </div>
  );
}
