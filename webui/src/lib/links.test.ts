import { describe, expect, it } from 'vitest';
import { contactLink, latLng, readableUrl, routeLinks, safeHref, shareTargets, waNumber } from './links';

describe('contact links', () => {
  it('phones call and text', () => {
    expect(contactLink('Mobile', '۰۹۱۲ ۱۲۳ ۴۵۶۷')).toMatchObject({ kind: 'mobile', href: 'tel:09121234567', sms: 'sms:09121234567' });
    expect(contactLink('phone', '021-8888 0000')).toMatchObject({ href: 'tel:02188880000' });
    expect(contactLink('Fax', '02188880001').icon).toBe('fax');
  });
  it('messengers from handles or URLs', () => {
    expect(contactLink('Telegram', '@omid_shop').href).toBe('https://t.me/omid_shop');
    expect(contactLink('Telegram', 'https://t.me/omid_shop').href).toBe('https://t.me/omid_shop');
    expect(contactLink('Whatsap', '09121234567').href).toBe('https://wa.me/989121234567');
    expect(contactLink('Eitaa', 'omid').href).toBe('https://eitaa.com/omid');
    expect(contactLink('Bale', 'omid').href).toBe('https://ble.ir/omid');
    expect(contactLink('Instagram', 'https://instagram.com/omid.shop/').href).toBe('https://instagram.com/omid.shop/');
    expect(contactLink('TikTak', 'omid').href).toBe('https://www.tiktok.com/@omid');
  });
  it('mail and sites', () => {
    expect(contactLink('Email', 'a@b.ir').href).toBe('mailto:a@b.ir');
    expect(contactLink('Site', 'omid.ir').href).toBe('https://omid.ir');
    expect(contactLink('Site', 'https://omid.ir/x').href).toBe('https://omid.ir/x');
    expect(contactLink('Ather', 'call after 5pm').href).toBeNull();
  });
  it('never produces script URLs', () => {
    expect(contactLink('Site', 'javascript:alert(1)').href).toBeNull();
    expect(contactLink('Ather', 'javascript:alert(1)').href).toBeNull();
    expect(contactLink('Telegram', 'javascript:alert(1)').href).toBe('https://t.me/javascript%3Aalert(1)');
    expect(safeHref('data:text/html,x')).toBeNull();
  });
  it('WhatsApp numbers', () => {
    expect(waNumber('+98 912 123 4567')).toBe('989121234567');
    expect(waNumber('0098912')).toBe('98912');
  });
});

describe('map links', () => {
  it('reads [longitude, latitude]', () => {
    expect(latLng([51.389, 35.6892])).toEqual({ lat: 35.6892, lng: 51.389 });
    expect(latLng([0, 0])).toBeNull();
    expect(latLng(null)).toBeNull();
  });
  it('routes with four services', () => {
    const r = routeLinks(35.6892, 51.389);
    expect(r.map((x) => x.name)).toEqual(['google', 'waze', 'neshan', 'balad']);
    expect(r[0].href).toContain('destination=35.689200,51.389000');
    expect(r[1].href).toContain('ll=35.689200,51.389000');
  });
  it('shows a Persian link readable, keeping what changes its meaning encoded', () => {
    const slug = 'لوله‌کشی-امید';
    const url = `https://kardan.ir/profile/${encodeURIComponent(slug)}`;
    expect(readableUrl(url)).toBe(`https://kardan.ir/profile/${slug}`);
    expect(readableUrl('https://kardan.ir/profile/a%2Fb%3Fc%23d%25')).toBe('https://kardan.ir/profile/a%2Fb%3Fc%23d%25');
    expect(readableUrl('https://kardan.ir/profile/%E2%80%AEabc%20d')).toBe('https://kardan.ir/profile/%E2%80%AEabc%20d');
    expect(readableUrl('https://kardan.ir/profile/%E0%A4%A')).toBe('https://kardan.ir/profile/%E0%A4%A');
    expect(readableUrl('https://kardan.ir/profile/%d8%a7%2D1')).toBe('https://kardan.ir/profile/ا-1');
  });
  it('shares to four messengers', () => {
    const s = shareTargets('https://kardan.ir/profile/a', 'A');
    expect(s.map((x) => x.name)).toEqual(['telegram', 'whatsapp', 'eitaa', 'bale']);
    expect(s[0].href).toBe('https://t.me/share/url?url=https%3A%2F%2Fkardan.ir%2Fprofile%2Fa&text=A');
  });
});
