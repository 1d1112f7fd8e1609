import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearDraft, draftKey, draftWriter, loadDraft, saveDraft, DRAFT_MAX_AGE_MS } from './draft';

function memory() {
  const m = new Map<string, string>();
  return {
    m,
    getItem: (k: string) => (m.has(k) ? m.get(k)! : null),
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
}

describe('form drafts', () => {
  it('survive a reload until cleared', () => {
    const s = memory();
    const key = draftKey(7, 'profile', null);
    expect(key).toBe('kardan.draft.7.profile.new');
    const form = { profile_name: 'لوله‌کشی امید', services: [{ title: 'نصب', price: 0 }] };
    expect(saveDraft(key, form, undefined, s, 1000)).toBe(true);
    // a "reload": a fresh read from the same storage
    const d = loadDraft<typeof form>(key, s, 2000);
    expect(d?.data).toEqual(form);
    expect(d?.at).toBe(1000);
    clearDraft(key, s);
    expect(loadDraft(key, s)).toBeNull();
  });
  it('keep the saved version they started from', () => {
    const s = memory();
    saveDraft('k', { a: 1 }, '2025-01-01T00:00:00Z', s, 5);
    expect(loadDraft('k', s, 6)?.base).toBe('2025-01-01T00:00:00Z');
  });
  it('are separate per user, kind and item', () => {
    expect(draftKey(1, 'profile', 5)).not.toBe(draftKey(2, 'profile', 5));
    expect(draftKey(1, 'profile', 5)).not.toBe(draftKey(1, 'blog', 5));
  });
  it('drop broken or stale entries', () => {
    const s = memory();
    s.setItem('bad', '{not json');
    expect(loadDraft('bad', s)).toBeNull();
    expect(s.m.has('bad')).toBe(false);
    s.setItem('old', JSON.stringify({ v: 1, at: 0, data: {} }));
    expect(loadDraft('old', s, DRAFT_MAX_AGE_MS + 1)).toBeNull();
    s.setItem('alien', JSON.stringify({ v: 9, at: 1, data: {} }));
    expect(loadDraft('alien', s, 2)).toBeNull();
  });
  it('a full storage does not throw', () => {
    const s = { ...memory(), setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(saveDraft('k', { a: 1 }, undefined, s)).toBe(false);
  });
  describe('debounced writer', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());
    it('writes the last value once typing pauses, and on flush', () => {
      const s = memory();
      const w = draftWriter<{ n: number }>('k', 300, s);
      w.write({ n: 1 });
      w.write({ n: 2 });
      expect(s.m.has('k')).toBe(false);
      vi.advanceTimersByTime(300);
      expect(JSON.parse(s.m.get('k')!).data).toEqual({ n: 2 });
      w.write({ n: 3 });
      w.flush();
      expect(JSON.parse(s.m.get('k')!).data).toEqual({ n: 3 });
      w.write({ n: 4 });
      w.cancel();
      vi.advanceTimersByTime(1000);
      expect(JSON.parse(s.m.get('k')!).data).toEqual({ n: 3 });
    });
  });
});
