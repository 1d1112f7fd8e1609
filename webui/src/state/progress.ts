import { createStore } from './store';

/** How many things are loading that the top progress bar should show (route chunks, page data). */
export const progressStore = createStore(0);

export function progressStart() {
  progressStore.set(progressStore.get() + 1);
}

export function progressDone() {
  progressStore.set(Math.max(0, progressStore.get() - 1));
}
