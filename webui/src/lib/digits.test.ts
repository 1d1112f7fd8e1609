import { describe, expect, it } from 'vitest';
import { localDigitsInput } from './digits';
import { emptyProfileForm, toPayload } from './profileForm';

/** A stand-in for a focused input: its text, its selection and the calls that move it. */
function field(value: string, caret: number) {
  const el = {
    value,
    selectionStart: caret as number | null,
    selectionEnd: caret as number | null,
    ownerDocument: { activeElement: null as unknown },
    setSelectionRange(a: number, b: number) {
      el.selectionStart = a;
      el.selectionEnd = b;
    },
  };
  el.ownerDocument.activeElement = el;
  return el;
}

describe('localDigitsInput', () => {
  it('shows Persian digits in fa and hands over Latin ones, the caret where it was', () => {
    // A Latin 5 typed in the middle of a Persian number.
    const el = field('۰۹۱۲5۳۴', 5);
    expect(localDigitsInput(el as unknown as HTMLInputElement, 'fa')).toBe('0912534');
    expect(el.value).toBe('۰۹۱۲۵۳۴');
    expect([el.selectionStart, el.selectionEnd]).toEqual([5, 5]);
  });
  it('shows Latin digits in en, whatever was typed', () => {
    const el = field('۰۹۱۲٣', 5);
    expect(localDigitsInput(el as unknown as HTMLInputElement, 'en')).toBe('09123');
    expect(el.value).toBe('09123');
  });
  it('leaves text already in the right digits alone', () => {
    const el = field('+۹۸ ۹۱۲', 3);
    el.setSelectionRange = () => {
      throw new Error('rewritten');
    };
    expect(localDigitsInput(el as unknown as HTMLInputElement, 'fa')).toBe('+98 912');
  });
});

describe('toPayload', () => {
  it('sends phone and mobile numbers in Latin digits, other links as written', () => {
    const f = emptyProfileForm('۰۹۱۲۱۱۱۰۳۱۱');
    f.social_network.push({ key: 'b', type: 'phone', link: '۰۲۱ ۸۸۷۷۶۶۵۵' }, { key: 'c', type: 'Instagram', link: '@نام۱' });
    expect(toPayload(f).social_network).toEqual([
      { type: 'mobile', link: '09121110311' },
      { type: 'phone', link: '021 88776655' },
      { type: 'Instagram', link: '@نام۱' },
    ]);
  });
});
