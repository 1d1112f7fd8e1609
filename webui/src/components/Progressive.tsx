import type { ComponentChildren } from 'preact';
import { useProgressive } from '../lib/useAfterPaint';

/**
 * A list drawn a few items per task (useProgressive), with its own state: each step redraws this
 * list only, not the page around it, and items already drawn are skipped when they are memoised
 * (ProfileCard is). `children` draws the items shown and says whether more are coming.
 */
export function Progressive<T>({
  list,
  first,
  step,
  children,
}: {
  list: T[];
  first: number;
  step: number;
  children: (items: T[], partial: boolean) => ComponentChildren;
}) {
  const { items, partial } = useProgressive(list, first, step);
  return <>{children(items, partial)}</>;
}
