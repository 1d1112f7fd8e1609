import { useState } from 'preact/hooks';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { usePageMeta } from '../../components/PageMeta';
import { CityPicker } from '../../components/CityPicker';
import { Icon } from '../../components/Icon';
import { ALL_IRAN, urlFromFilters } from '../../lib/searchUrl';

interface Props {
  /**
   * What a search address named that does not exist (REVIEW #8): an unknown city offers the
   * city picker and all of Iran (keeping the category); an unknown category offers every
   * category of the city; a missing profile offers the city picker to find another. Without it,
   * the plain "page not found".
   */
  missing?: 'city' | 'category' | 'profile';
  /** The city of the search address, when it is a real one (an unknown category). */
  city?: string;
  /** The category of the search address, when it is a real one (an unknown city). */
  category?: string;
}

export default function NotFound({ missing, city, category }: Props = {}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [picker, setPicker] = useState(false);
  const title = missing ? t(`notFound.${missing}Title`) : t('notFound.title');
  const text = missing ? t(`notFound.${missing}Text`) : t('notFound.text');
  usePageMeta(title, text);
  return (
    <section class="container not-found">
      <svg class="nf-art" viewBox="0 0 200 120" aria-hidden="true" focusable="false">
        <text x="100" y="92" text-anchor="middle">404</text>
        <path d="M100 18c-12 0-22 9.6-22 21.5C78 55 100 72 100 72s22-17 22-32.5C122 27.6 112 18 100 18z" />
        <circle cx="100" cy="39" r="8" />
      </svg>
      <h1>{title}</h1>
      <p class="muted">{text}</p>
      {(missing === 'city' || missing === 'profile') && (
        <div class="nf-actions">
          <button type="button" class="btn btn-primary" onClick={() => setPicker(true)}>
            <Icon name="pin" size={18} />
            {t('notFound.pickCity')}
          </button>
          <Link to={urlFromFilters({ city: ALL_IRAN, category, page: 1 })} class="btn btn-outline">
            {t('city.allIran')}
          </Link>
          <CityPicker
            open={picker}
            allowProvince
            onClose={() => setPicker(false)}
            onSelect={(c, p) => navigate(urlFromFilters({ city: c?.slag ?? ALL_IRAN, province: c?.province_id ?? p?.id ?? undefined, category, page: 1 }))}
          />
        </div>
      )}
      {missing === 'category' && (
        <div class="nf-actions">
          <Link to={urlFromFilters({ city: city ?? ALL_IRAN, page: 1 })} class="btn btn-primary">
            <Icon name="search" size={18} />
            {t('notFound.allCategories')}
          </Link>
        </div>
      )}
      <Link to="/" class={missing ? 'btn btn-ghost' : 'btn btn-primary'}>
        {t('notFound.home')}
      </Link>
    </section>
  );
}
