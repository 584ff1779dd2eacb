/**
 * Bounded read-your-writes (docs/deployment.md): a regional node waits at most a second for the
 * sync that carries the user's last change, then answers from its copy with X-Console-Stale-Read.
 * Every screen then says the page may not show that change yet, until a read comes back fresh.
 */
import { atom, getDefaultStore } from "jotai";

export const STALE_READ_HEADER = "x-console-stale-read";

export const staleReadAtom = atom(false);

/** Notes whether a read the server answered carries the user's last change. */
export function noteFreshness(res: Response): void {
  const stale = res.headers.get(STALE_READ_HEADER) === "1";
  const store = getDefaultStore();
  if (store.get(staleReadAtom) !== stale) store.set(staleReadAtom, stale);
}
