import { useEffect } from "react";
import { useLocation } from "react-router";
import { apiFetch, AUTH_USER_KEY } from "./api.ts";
import { showToast } from "./toast.ts";
import { redirectToLogin } from "./unauthorized.ts";

/** Screens that do not check login (spec 2.11: the fintech screen). */
const UNGUARDED_PATHS = new Set(["/fintech-operations"]);

/**
 * Spec 2.1: every screen checks login when it opens; if the session has ended (expired, revoked,
 * deleted) the user sees the unauthorized toast and is sent to sign-in.
 */
export function useAuthGuard(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (UNGUARDED_PATHS.has(pathname)) return;
    const controller = new AbortController();
    apiFetch(AUTH_USER_KEY, controller.signal)
      .then(async (res) => {
        // Read to the end: a response left unread stays open in the browser for as long as the page lives.
        await res.body?.cancel();
        if (res.status === 401) redirectToLogin(showToast);
      })
      .catch(() => {
        // Aborted by the next navigation, or offline: the screen's own queries report that.
      });
    return () => controller.abort();
  }, [pathname]);
}
