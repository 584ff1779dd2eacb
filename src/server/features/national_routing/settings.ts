/** The national routing feature's settings, parsed once at start by config.ts. */
import { DEFAULT_ISSUER_PREFIX, issuerPrefixOf } from "../../../domain/national_routing.ts";

/** Overrides the issuer prefix used when a request carries no central bank code. */
export const ISSUER_PREFIX_ENV = "CENTRAL_BANK_CODE_PREFIX";

/** The prefix for requests without a code: CENTRAL_BANK_CODE_PREFIX or "CBR". Throws at start-up when misconfigured. */
export function configuredIssuerPrefix(env: Readonly<Record<string, string | undefined>>): string {
  const source = env[ISSUER_PREFIX_ENV] || DEFAULT_ISSUER_PREFIX;
  const prefix = issuerPrefixOf(source);
  if (!prefix.ok || source.length !== prefix.value.length) {
    throw new Error(`${ISSUER_PREFIX_ENV} must be 3 letters, got "${source}"`);
  }
  return prefix.value;
}
