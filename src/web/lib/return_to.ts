/**
 * After signing in, back to the page first asked for. The sign-in page is the server's
 * and always lands on "/", so the browser remembers the path for this tab (sessionStorage) when it
 * sends the user to sign in, and the signed-in app goes there once.
 */
const STORAGE_KEY = "cbr.returnTo";
const MAX_RETURN_PATH_LENGTH = 2048;

/** Only a path of this app: one leading slash (never "//host"), not the API, not the dashboard itself. */
export function isReturnPath(path: string): boolean {
  return path.length <= MAX_RETURN_PATH_LENGTH && /^\/(?![/\\])/.test(path) && !/^\/api(\/|$)/.test(path) &&
    path !== "/";
}

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    // Storage disabled by the browser: signing in then lands on the dashboard.
    return null;
  }
}

/** Remembers `path` as the place to return to; the dashboard (or anything else) forgets it. */
export function rememberReturnPath(path: string): void {
  const store = storage();
  if (!store) return;
  if (isReturnPath(path)) store.setItem(STORAGE_KEY, path);
  else store.removeItem(STORAGE_KEY);
}

/** The remembered path, once: reading it forgets it. */
export function takeReturnPath(): string | null {
  const store = storage();
  const path = store?.getItem(STORAGE_KEY) ?? null;
  store?.removeItem(STORAGE_KEY);
  return path !== null && isReturnPath(path) ? path : null;
}

export function currentPath(): string {
  const { pathname, search, hash } = globalThis.location;
  return `${pathname}${search}${hash}`;
}
