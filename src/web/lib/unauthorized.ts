/** Spec 5 and 8: recognising an unauthorized error and sending the user back to sign-in. */
import { currentPath, rememberReturnPath } from "./return_to.ts";
import type { ToastInput } from "./toast.ts";

export const UNAUTHORIZED_REDIRECT_DELAY_MS = 500;

export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

export function redirectToLogin(toast: (input: ToastInput) => void): void {
  toast({
    title: "Unauthorized",
    description: "You are logged out. Logging in again...",
    variant: "destructive",
  });
  rememberReturnPath(currentPath());
  setTimeout(() => {
    globalThis.location.href = "/api/login";
  }, UNAUTHORIZED_REDIRECT_DELAY_MS);
}

/**
 * The standard failure handler for a screen's mutation: unauthorized errors redirect to sign-in,
 * anything else shows `title` with the server's reason.
 */
export function handleMutationError(
  error: unknown,
  toast: (input: ToastInput) => void,
  title: string,
  fallbackDescription?: string,
): void {
  if (isUnauthorizedError(error)) return redirectToLogin(toast);
  const serverMessage = error && typeof error === "object" && "serverMessage" in error
    ? String((error as { serverMessage: string }).serverMessage)
    : null;
  toast({ title, description: serverMessage || fallbackDescription, variant: "destructive" });
}
