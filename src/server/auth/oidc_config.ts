/**
 * Single sign-on settings from the environment. OIDC is on when OIDC_ISSUER is set, and then the
 * client id, secret and redirect URI are required too; a half-configured provider stops the
 * server at start rather than failing at the first sign-in.
 */
import { isRole, type Role, ROLES } from "../../domain/access.ts";
import { parseRoleMap, type RoleMap } from "../../domain/oidc_roles.ts";

export const OIDC_CALLBACK_PATH = "/api/login/oidc/callback";
/**
 * What a provider value can map to: the console's roles (src/domain/access.ts), and "admin" as the
 * spec's label for the administrator.
 */
export const CONSOLE_ROLES = ["admin", ...ROLES] as const;
export type ConsoleRole = typeof CONSOLE_ROLES[number];

/** The console roles a set of mapped values grants. */
export function grantedRoles(mapped: readonly string[]): Role[] {
  const roles = new Set<Role>();
  for (const value of mapped) {
    // "admin" is the spec's coarse label: the administrator role, which is held alone.
    if (value === "admin") {
      roles.add("administrator");
    } else if (isRole(value)) {
      roles.add(value);
    }
  }
  return ROLES.filter((role) => roles.has(role));
}

export interface OidcConfig {
  issuer: URL;
  /** The issuer as OIDC_ISSUER spells it, which the ID tokens carry as `iss`: identities are linked under it. */
  expectedIssuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: URL;
  /** Shown on the sign-in button: "Sign in with <providerName>". */
  providerName: string;
  /** Dotted path of the claim that carries the provider's roles or groups. */
  rolesClaim: string;
  roleMap: RoleMap;
  scopes: string;
  /** Local password sign-in stays open to administrators (break-glass) while OIDC is on. */
  localBreakGlass: boolean;
}

const REQUIRED = ["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_REDIRECT_URI", "OIDC_ROLE_MAP"] as const;

function url(name: string, value: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new Error(`${name} must be an absolute URL, got "${value}"`);
  }
}

export function parseOidcConfig(env: Record<string, string | undefined>): OidcConfig | null {
  if (!env.OIDC_ISSUER) return null;
  const missing = REQUIRED.filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`OIDC_ISSUER is set, so ${missing.join(", ")} must be set too`);
  const issuer = url("OIDC_ISSUER", env.OIDC_ISSUER);
  const redirectUri = url("OIDC_REDIRECT_URI", env.OIDC_REDIRECT_URI!);
  if (redirectUri.pathname !== OIDC_CALLBACK_PATH) {
    throw new Error(`OIDC_REDIRECT_URI must end in ${OIDC_CALLBACK_PATH}, got "${redirectUri.pathname}"`);
  }
  const roleMap = parseRoleMap(env.OIDC_ROLE_MAP!, CONSOLE_ROLES);
  if ("error" in roleMap) throw new Error(`OIDC_ROLE_MAP: ${roleMap.error}`);
  return {
    issuer,
    expectedIssuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID!,
    clientSecret: env.OIDC_CLIENT_SECRET!,
    redirectUri,
    providerName: env.OIDC_PROVIDER_NAME?.trim() || issuer.hostname,
    rolesClaim: env.OIDC_ROLES_CLAIM?.trim() || "roles",
    roleMap,
    scopes: env.OIDC_SCOPES?.trim() || "openid email profile",
    localBreakGlass: env.OIDC_LOCAL_BREAK_GLASS === "1" || env.OIDC_LOCAL_BREAK_GLASS === "true",
  };
}

/** The provider's host for the server's --allow-net (scripts/start.ts). */
export function oidcNetHosts(env: Record<string, string | undefined>): string[] {
  return env.OIDC_ISSUER ? [url("OIDC_ISSUER", env.OIDC_ISSUER).host] : [];
}
