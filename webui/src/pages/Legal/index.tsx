import { NavLink } from 'react-router-dom';
import { usePageMeta } from '../../components/PageMeta';
import { Loading } from '../../components/StateViews';
import { useNamespace, useTranslation } from '../../i18n';
import './legal.css';

export type LegalPage = 'about' | 'terms' | 'privacy' | 'secure' | 'prohibited';

interface Section {
  title: string;
  paragraphs?: string[];
  items?: string[];
}

const LINKS: { page: LegalPage; to: string }[] = [
  { page: 'about', to: '/about' },
  { page: 'terms', to: '/terms' },
  { page: 'privacy', to: '/terms/privacy' },
  { page: 'secure', to: '/terms/secure-service' },
  { page: 'prohibited', to: '/terms/prohibited' },
];

/** About, terms, privacy, safe-service guide and prohibited list: long texts loaded on demand (i18n namespace "legal"). */
export default function Legal({ page }: { page: LegalPage }) {
  const { t } = useTranslation('legal');
  const ready = useNamespace('legal');
  usePageMeta(ready ? t(`${page}.title`) : undefined, ready ? t(`${page}.description`) : undefined);
  if (!ready) return <Loading page />;
  const sections = t(`${page}.sections`, { returnObjects: true }) as Section[];
  return (
    <div class="container legal">
      <nav class="legal-nav" aria-label={t('nav')}>
        {LINKS.map((l) => (
          <NavLink key={l.page} to={l.to} end className={({ isActive }: { isActive: boolean }) => (isActive ? 'active' : '')}>
            {t(`${l.page}.short`)}
          </NavLink>
        ))}
      </nav>
      <article class="legal-body card card-pad">
        <h1>{t(`${page}.title`)}</h1>
        <p class="legal-lead">{t(`${page}.intro`)}</p>
        {Array.isArray(sections) &&
          sections.map((s, i) => (
            <section key={i}>
              <h2>{s.title}</h2>
              {s.paragraphs?.map((p, j) => <p key={j}>{p}</p>)}
              {s.items && (
                <ul>
                  {s.items.map((it, j) => (
                    <li key={j}>{it}</li>
                  ))}
                </ul>
              )}
            </section>
          ))}
        <p class="muted small legal-updated">{t('updated')}</p>
      </article>
    </div>
  );
}
