import { useState } from 'preact/hooks';
import type { Profile } from '../api/types';
import { tradeLook } from '../lib/tradeLook';
import { Icon } from './Icon';

/** The picture a business is shown with: its own photo, else its first portfolio photo, else its logo. */
export function profilePhoto(p: Pick<Profile, 'profile_image' | 'portfolio_images' | 'logo'>): string {
  return p.profile_image || p.portfolio_images?.[0] || p.logo || '';
}

/**
 * A business's picture, or, when it has none (or it fails to load), a placeholder drawn for its
 * trade: the field's icon on the field's colour. Never the Kardan logo, which would make every
 * listing look like Kardan's own. `alt` empty: decorative (the name is beside it).
 */
export function TradePicture({
  p,
  src,
  class: cls,
  size,
  alt = '',
  lazy = true,
}: {
  p: Pick<Profile, 'range_worker' | 'profile_image' | 'portfolio_images' | 'logo'>;
  /** A picture other than profilePhoto(p) (the logo badge). */
  src?: string;
  class: string;
  size: number;
  alt?: string;
  lazy?: boolean;
}) {
  const url = src ?? profilePhoto(p);
  const [failed, setFailed] = useState<string | null>(null);
  if (url && failed !== url) {
    return (
      <img
        class={cls}
        src={url}
        alt={alt}
        width={size}
        height={size}
        loading={lazy ? 'lazy' : undefined}
        decoding="async"
        onError={() => setFailed(url)}
      />
    );
  }
  const look = tradeLook(p.range_worker);
  const style = { '--ph-hue': String(look.hue) };
  const icon = <Icon name={look.icon} size={Math.round(size * 0.46)} />;
  if (alt) {
    return (
      <span class={`${cls} trade-ph`} style={style} data-trade-icon={look.icon} role="img" aria-label={alt}>
        {icon}
      </span>
    );
  }
  return (
    <span class={`${cls} trade-ph`} style={style} data-trade-icon={look.icon} aria-hidden="true">
      {icon}
    </span>
  );
}
