import { describe, expect, it } from 'vitest';
import { canonicalType, checkLink, CONTACT_TYPES } from './contactCheck';

describe('contact checks as typed', () => {
  it('offers every type of the spec plus phone, mobile and fax, spelt as stored', () => {
    const types = CONTACT_TYPES.map((c) => c.type).sort();
    expect(types).toEqual(
      ['Telegram', 'Whatsap', 'Facebook', 'Twitter', 'Skype', 'Reddit', 'Youtube', 'Instagram', 'Wechat', 'TikTak', 'Pinterest', 'Soroush', 'Eitaa', 'Bale', 'Rubika', 'Igap', 'Gap', 'Github', 'Gitlab', 'Linkedin', 'Discord', 'Site', 'Email', 'Ather', 'phone', 'mobile', 'fax'].sort(),
    );
    expect(canonicalType('WHATSAP')).toBe('Whatsap');
    expect(canonicalType('Mobile')).toBe('mobile');
    expect(canonicalType('myspace')).toBeNull();
  });
  it('takes a web address without https:// as people copy it (REVIEW #25)', () => {
    expect(checkLink('Instagram', 'instagram.com/ahmadi.plumbing')).toBeNull();
    expect(checkLink('Site', 'www.example.ir')).toBeNull();
    expect(checkLink('Telegram', 't.me/omid')).toBeNull();
    expect(checkLink('Site', 'not a site')).toBe('site');
  });
  it('checks each kind', () => {
    expect(checkLink('mobile', '۰۹۱۲ ۱۲۳ ۴۵۶۷')).toBeNull();
    expect(checkLink('mobile', '02188776655')).toBe('mobile');
    expect(checkLink('phone', '021-8877 6655')).toBeNull();
    expect(checkLink('fax', 'fax me')).toBe('phone');
    expect(checkLink('Email', 'a@b.ir')).toBeNull();
    expect(checkLink('Email', 'a@b')).toBe('email');
    expect(checkLink('Site', 'https://kardan.ir/x')).toBeNull();
    expect(checkLink('Site', 'kardan.ir')).toBeNull(); // stored as https://kardan.ir (REVIEW #25)
    expect(checkLink('Instagram', '@kardan.ir')).toBeNull();
    expect(checkLink('Instagram', 'two words')).toBe('handle');
    expect(checkLink('Telegram', '09121234567')).toBeNull();
    expect(checkLink('Telegram', 'https://t.me/kardan')).toBeNull();
    expect(checkLink('Telegram', '!!')).toBe('messenger');
    expect(checkLink('Ather', 'anything at all')).toBeNull();
    expect(checkLink('Ather', 'javascript:alert(1)')).toBe('any');
    expect(checkLink('Telegram', '  ')).toBe('empty');
    expect(checkLink('Nope', 'x')).toBe('type');
  });
});
