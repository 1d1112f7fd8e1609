import { createContext } from 'preact';
import type { ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { clearSession, hasSessionTraces, isAdminUser, isLoggedIn, readUserId, saveLogin } from '../api/auth';
import { logoutServer } from '../api';
import type { LoginAnswer } from '../api/types';

export interface AuthState {
  loggedIn: boolean;
  isAdmin: boolean;
  userId: number | null;
  signIn(answer: LoginAnswer): void;
  signOut(opts?: { server?: boolean }): Promise<void>;
  refresh(): void;
}

function snapshot() {
  const loggedIn = isLoggedIn();
  const id = Number(readUserId());
  return { loggedIn, isAdmin: loggedIn && isAdminUser(), userId: loggedIn && Number.isFinite(id) ? id : null };
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ComponentChildren }) {
  const [s, setS] = useState(snapshot);

  useEffect(() => {
    if (!isLoggedIn() && hasSessionTraces()) clearSession();
    const onFocus = () => setS(snapshot());
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, []);

  const refresh = useCallback(() => setS(snapshot()), []);
  const signIn = useCallback((answer: LoginAnswer) => {
    saveLogin(answer);
    setS(snapshot());
  }, []);
  const signOut = useCallback(async (opts: { server?: boolean } = {}) => {
    if (opts.server !== false && isLoggedIn()) {
      await logoutServer().catch(() => undefined);
    }
    clearSession();
    setS(snapshot());
  }, []);

  const value = useMemo(() => ({ ...s, signIn, signOut, refresh }), [s, signIn, signOut, refresh]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const v = useContext(AuthContext);
  if (!v) throw new Error('useAuth outside AuthProvider');
  return v;
}
