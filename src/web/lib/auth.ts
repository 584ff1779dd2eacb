import { useQuery } from "@tanstack/react-query";

export interface AuthUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  role: string;
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
