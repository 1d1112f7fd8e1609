import { describe, expect, it } from 'vitest';
import { contactDigitsInput, localDigitsInput } from './digits';
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

describe('contactDigitsInput', () => {
  it("shows a messenger's number in the language's digits and hands over Latin ones", () => {
    const el = field('+98 912 5', 9);
    expect(contactDigitsInput(el as unknown as HTMLInputElement, 'fa')).toBe('+98 912 5');
    expect(el.value).toBe('+۹۸ ۹۱۲ ۵');
    expect([el.selectionStart, el.selectionEnd]).toEqual([9, 9]);
  });
  it('keeps a handle or a link in Latin digits, those a number showed in Persian included', () => {
    // "0912" read ۰۹۱۲ while it was a number; a letter makes it a handle.
    const el = field('۰۹۱۲a', 5);
    expect(contactDigitsInput(el as unknown as HTMLInputElement, 'fa')).toBe('0912a');
    expect(el.value).toBe('0912a');
    expect([el.selectionStart, el.selectionEnd]).toEqual([5, 5]);
    const link = field('t.me/sina_31', 12);
    expect(contactDigitsInput(link as unknown as HTMLInputElement, 'fa')).toBe('t.me/sina_31');
    expect(link.value).toBe('t.me/sina_31');
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
