/**
 * The console roles of a user signed in through the bank's identity provider, from the claim that
 * carries the provider's groups or roles. OIDC_ROLE_MAP lists "provider value=console role" pairs;
 * a value not listed grants nothing, and a user granted nothing is not let in.
 */

export type RoleMap = ReadonlyMap<string, string>;

const MAX_ROLE_MAP_ENTRIES = 100;
const MAX_CLAIM_VALUES = 1_000;

/** Parses "registry-admins=admin, registry-staff=operator"; every console role must be one of `consoleRoles`. */
export function parseRoleMap(text: string, consoleRoles: readonly string[]): RoleMap | { error: string } {
  const map = new Map<string, string>();
  const entries = text.split(",").map((entry) => entry.trim()).filter(Boolean);
  if (entries.length > MAX_ROLE_MAP_ENTRIES) return { error: `at most ${MAX_ROLE_MAP_ENTRIES} entries` };
  for (const entry of entries) {
    const at = entry.lastIndexOf("=");
    const value = entry.slice(0, at).trim();
    const role = entry.slice(at + 1).trim();
    if (at <= 0 || !value) return { error: `"${entry}" is not "provider value=console role"` };
    if (!consoleRoles.includes(role)) {
      return { error: `"${role}" is not a console role (${consoleRoles.join(", ")})` };
    }
    map.set(value, role);
  }
  if (map.size === 0) return { error: "no role is mapped" };
  return map;
}

/** The claim at a dotted path ("roles", "realm_access.roles"), or undefined. */
export function claimAt(claims: Record<string, unknown>, path: string): unknown {
  let value: unknown = claims;
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The console roles a claim value grants: the claim may be a list of strings or one string. */
export function mapClaimRoles(claim: unknown, map: RoleMap): string[] {
  const values = Array.isArray(claim) ? claim.slice(0, MAX_CLAIM_VALUES) : claim === undefined ? [] : [claim];
  const roles = new Set<string>();
  for (const value of values) {
    if (typeof value !== "string") continue;
    const role = map.get(value);
    if (role) roles.add(role);
  }
  return [...roles];
}

/**
 * The one role the console records per user today: the first of `precedence` that was granted,
 * or null when none was.
 */
export function primaryRole<R extends string>(
  granted: readonly string[],
  precedence: readonly R[],
): R | null {
  return precedence.find((role) => granted.includes(role)) ?? null;
}
