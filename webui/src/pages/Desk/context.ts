import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { User } from '../../api';

export interface DeskState {
  me: User | null;
  /** The account's first load is still under way, for its first 5 s at most (`me` is null until it ends, whether or not it fails). */
  meLoading: boolean;
  setMe: (u: User) => void;
  /** Login (or the account) says this user is an administrator; the server checks every call anyway. */
  admin: boolean;
  userId: number | null;
}

export const DeskContext = createContext<DeskState>({ me: null, meLoading: false, setMe: () => undefined, admin: false, userId: null });

export function useDesk(): DeskState {
  return useContext(DeskContext);
}
