import { describe, expect, it } from 'vitest';
import { formatPriceInput, groupPrice, parsePrice, priceDigits, MAX_PRICE } from './price';

describe('price input', () => {
  it('groups thousands in each language', () => {
    expect(groupPrice(1250000, 'en')).toBe('1,250,000');
    expect(groupPrice(1250000, 'fa')).toBe('۱٬۲۵۰٬۰۰۰');
    expect(groupPrice(0, 'en')).toBe('0');
    expect(groupPrice(999, 'fa')).toBe('۹۹۹');
    expect(groupPrice('', 'en')).toBe('');
  });
  it('reads Persian, Arabic and Latin digits and ignores the rest', () => {
    expect(parsePrice('۱٬۲۵۰٬۰۰۰ تومان')).toBe(1250000);
    expect(parsePrice('٣٥٠,٠٠٠')).toBe(350000);
    expect(parsePrice('abc')).toBeNull();
    expect(parsePrice('')).toBeNull();
    expect(priceDigits('000120')).toBe('120');
    expect(priceDigits('0')).toBe('0');
  });
  it('never exceeds the largest price the server takes', () => {
    expect(String(parsePrice('99999999999999999'))).toHaveLength(String(MAX_PRICE).length);
  });
  it('formats as you type and keeps the caret after the same digit', () => {
    // typing the 4th digit at the end
    expect(formatPriceInput('1,2345', 6, 'en')).toEqual({ text: '12,345', caret: 6, value: 12345 });
    // inserting a digit in the middle: "1,2|50" + "9" → "12,9|50"? caret after the 9
    const r = formatPriceInput('1,29|50'.replace('|', ''), 4, 'en');
    expect(r.text).toBe('12,950');
    expect(r.text.slice(0, r.caret)).toBe('12,9');
    // Persian digits in fa
    const f = formatPriceInput('۱۲۳۴', 4, 'fa');
    expect(f).toEqual({ text: '۱٬۲۳۴', caret: 5, value: 1234 });
    // Latin digits typed on an English keyboard in fa become Persian
    expect(formatPriceInput('5000', 4, 'fa').text).toBe('۵٬۰۰۰');
    // deleting everything
    expect(formatPriceInput('', 0, 'en')).toEqual({ text: '', caret: 0, value: null });
    // a leading zero is dropped and the caret follows
    expect(formatPriceInput('05', 2, 'en')).toEqual({ text: '5', caret: 1, value: 5 });
    // caret at the start stays there
    expect(formatPriceInput('1000', 0, 'en').caret).toBe(0);
  });
});
