/** One app-wide toast at a time (spec 4 and 9): a newer toast replaces the current one. */
import { atom, getDefaultStore } from "jotai";

export const TOAST_DURATION_MS = 5000;
export const TOAST_LIMIT = 1;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: "default" | "destructive";
}

export interface ToastItem extends ToastInput {
  id: number;
}

export const toastsAtom = atom<ToastItem[]>([]);
let nextId = 1;

/** Usable outside React too (query-cache error handlers). */
export function showToast(input: ToastInput): number {
  const item = { ...input, id: nextId++ };
  getDefaultStore().set(toastsAtom, (current) => [item, ...current].slice(0, TOAST_LIMIT));
  return item.id;
}

export function dismissToast(id: number): void {
  getDefaultStore().set(toastsAtom, (current) => current.filter((item) => item.id !== id));
}

export function useToast() {
  return { toast: showToast, dismiss: dismissToast };
}
