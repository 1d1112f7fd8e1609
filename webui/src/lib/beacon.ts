/**
 * The taps an owner's statistics count (see POST /v1/stats/event). A quote request is not one:
 * the server counts it when the request is sent.
 */
export type TapKind = 'call' | 'sms' | 'route' | 'share' | 'social' | 'website';

/** Which tap a contact of the profile page is: its kind from `contactKind`, its type as stored. */
export function contactTap(kind: string, type: string): { kind: TapKind; detail: string } {
  if (kind === 'phone' || kind === 'mobile' || kind === 'fax') return { kind: 'call', detail: '' };
  if (kind === 'site') return { kind: 'website', detail: '' };
  return { kind: 'social', detail: type };
}

/**
 * Tells the server a visitor tapped one of a profile's buttons, without holding up the tap: the
 * browser sends it even as the page is left for the phone or the map app. No cookie, no
 * identifier: the server counts it once per visitor and day. Failures are of no concern to the visitor.
 */
export function sendTap(profileId: number, kind: TapKind, detail = ''): void {
  const body = JSON.stringify({ profile_id: profileId, kind, detail });
  try {
    if (typeof navigator !== 'undefined' && navigator.sendBeacon?.('/v1/stats/event', new Blob([body], { type: 'application/json' }))) return;
    void fetch('/v1/stats/event', { method: 'POST', body, headers: { 'Content-Type': 'application/json' }, keepalive: true }).catch(() => {});
  } catch {
    // A browser without either: the tap is not counted.
  }
}
