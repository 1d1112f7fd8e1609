import { createStore } from './store';

export type ToastKind = 'info' | 'success' | 'error';
export interface Toast {
  id: number;
  text: string;
  kind: ToastKind;
}

/** Toasts hide after 4 seconds (SPEC §9). */
export const TOAST_MS = 4000;

export const toastStore = createStore<Toast[]>([]);
let seq = 0;

export function dismissToast(id: number) {
  toastStore.set(toastStore.get().filter((t) => t.id !== id));
}

export function toast(text: string, kind: ToastKind = 'info') {
  if (!text) return;
  const id = ++seq;
  toastStore.set([...toastStore.get().filter((t) => t.text !== text), { id, text, kind }].slice(-3));
  setTimeout(() => dismissToast(id), TOAST_MS);
}
