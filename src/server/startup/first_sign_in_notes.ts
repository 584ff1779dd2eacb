/**
 * What the start log says about signing in the first time, printed once at the end of a first
 * start, apart from every other line: the first administrator's password (where it comes from, or
 * the generated one itself), what the sign-in will ask for, then the demo staff's one-time
 * passwords in a block of their own. Nothing here is written anywhere but the start log.
 */
import type { Config } from "../config.ts";
import type { StartCredential } from "./seeder.ts";

/** The first administrator made at this start: its password generated (printed) or from ADMIN_PASSWORD. */
export interface FirstAdministrator {
  email: string;
  generatedPassword: string | null;
}

const RULE = "=".repeat(78);

/** Where a browser on this machine reaches the sign-in page (a wildcard address is reached locally). */
function signInUrl(config: Pick<Config, "host" | "port">): string {
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}/api/login`;
}

/** What the second factor asks of an administrator's first sign-in, as REQUIRE_MFA has it. */
function secondFactorLines(requireMfa: boolean): string[] {
  if (!requireMfa) {
    return [
      "Second factor: off (REQUIRE_MFA=0): the password alone signs in, for a local trial only.",
      "  A user who has already set up an authenticator is still asked for its code.",
    ];
  }
  return [
    "You also need an authenticator app: any TOTP app (RFC 6238) on a phone or computer.",
    "  The first sign-in shows a QR code (and its key) to scan, asks for a code from the app,",
    "  then shows ten recovery codes to save. Administrators and approvers always need it;",
    '  other staff too while the Security setting "Require multi-factor authentication" is on.',
    "  For a local trial without an app: restart with REQUIRE_MFA=0 (never in production).",
  ];
}

export function firstAdministratorBlock(
  admin: FirstAdministrator,
  config: Pick<Config, "host" | "port" | "requireMfa">,
): string[] {
  const password = admin.generatedPassword === null ? ["Password: the one set in ADMIN_PASSWORD"] : [
    `Password: ${admin.generatedPassword}`,
    "  (generated now and printed this once; only its hash is stored: keep it safe)",
  ];
  return [
    "",
    RULE,
    "FIRST SIGN-IN: the first administrator",
    `E-mail:   ${admin.email}`,
    ...password,
    `Sign in:  ${signInUrl(config)}`,
    ...secondFactorLines(config.requireMfa),
    RULE,
  ];
}

/** The one-time passwords made at this start, each with its e-mail and role, in a block of their own. */
export function oneTimePasswordsBlock(
  credentials: readonly StartCredential[],
  requireMfa: boolean,
): string[] {
  if (credentials.length === 0) return [];
  return [
    "",
    RULE,
    "ONE-TIME PASSWORDS: demo staff, printed this once",
    ...credentials.map(({ role, email, password }) =>
      `Demo ${role} ${email}, one-time password: ${password}`
    ),
    "Each is replaced at its first sign-in by a password of the person's own choosing.",
    ...(requireMfa ? ["Each also sets up an authenticator app at that sign-in, as above."] : []),
    RULE,
    "",
  ];
}
