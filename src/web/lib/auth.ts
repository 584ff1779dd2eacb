import { useQuery } from "@tanstack/react-query";
import { mayCall, type Role, ruleFor } from "../../domain/access.ts";
import type { SignInStep } from "../../domain/first_sign_in.ts";

export interface AuthUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  role: string;
  roles: Role[];
  /** An initial or reset password is still in use: the console shows only the password change. */
  mustChangePassword: boolean;
  /** While the one-time password is in use: every step of this sign-in, for its step indicator. */
  signInSteps?: SignInStep[];
}

/** Signed in when the current-user fetch succeeds; any failure means signed out, never retried. */
export function useAuth() {
  const { data: user, isLoading } = useQuery<AuthUser>({
    queryKey: ["/api/auth/user"],
    retry: false,
  });
  return { user, isLoading, isAuthenticated: Boolean(user) };
}

export function userLabel(user: Pick<AuthUser, "firstName" | "lastName" | "email"> | undefined): string {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(" ");
  return name || user?.email || "Central Bank Admin";
}

/**
 * Whether the signed-in user's roles open a route, by the server's own rule table
 * (src/domain/access.ts), so that screens hide or disable exactly what the server would refuse.
 */
export function useMayCall(method: string, path: string): boolean {
  const { user } = useAuth();
  const rule = ruleFor(method, path);
  return Boolean(user && rule && mayCall(rule, user.roles ?? []));
}
