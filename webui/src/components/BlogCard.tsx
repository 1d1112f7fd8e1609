import { Link } from 'react-router-dom';
import { useTranslation } from '../i18n';
import type { Blog } from '../api/types';
import { formatDate } from '../lib/format';
import { Icon } from './Icon';

export function blogAuthor(b: Blog): string {
  if (b.writer?.name) return b.writer.name;
  if (b.writer_id && typeof b.writer_id === 'object' && b.writer_id.name) return b.writer_id.name;
  return '';
}

export function blogTags(b: Blog): string[] {
  if (Array.isArray(b.tag)) return b.tag.filter(Boolean);
  if (typeof b.tag === 'string') return b.tag.split(/[,،]/).map((s) => s.trim()).filter(Boolean);
  return [];
}

export function BlogCard({ b }: { b: Blog }) {
  const { i18n } = useTranslation();
  const date = formatDate(b.release_at || b.create_at, i18n.language);
  return (
    <article class="bcard card">
      <Link to={`/blog/${encodeURIComponent(b.slug || String(b.id))}`} class="bcard-link">
        <div class="bcard-img">
          {b.image_url ? <img src={b.image_url} alt="" loading="lazy" decoding="async" width={400} height={225} /> : <Icon name="book" size={40} />}
        </div>
        <div class="bcard-body">
          <h3 dir="auto">{b.title}</h3>
          {b.summary && <p class="muted small bcard-summary" dir="auto">{b.summary}</p>}
          <p class="bcard-meta small muted">
            {blogAuthor(b) && <span>{blogAuthor(b)}</span>}
            {date && (
              <span>
                <Icon name="calendar" size={14} class="inline-icon" /> {date}
              </span>
            )}
          </p>
        </div>
      </Link>
    </article>
  );
}
