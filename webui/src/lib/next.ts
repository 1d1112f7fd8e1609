/** Only same-site paths are followed after signing in or up; anything else goes to the Desk. */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/dashboard';
}
