/** The cards feature's settings, parsed once at start by config.ts. */
import { type CardBrand, DEFAULT_ISSUER_PREFIXES, validateIssuerPrefix } from "../../../domain/card.ts";

export const ISSUER_PREFIX_ENV: Readonly<Record<CardBrand, string>> = {
  visa: "CARD_PREFIX_VISA",
  soln_bank: "CARD_PREFIX_SOLN_BANK",
};

/** Reads CARD_PREFIX_VISA / CARD_PREFIX_SOLN_BANK; a malformed prefix stops the server at start. */
export function issuerPrefixesFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Record<CardBrand, string> {
  const prefixes = { ...DEFAULT_ISSUER_PREFIXES };
  for (const brand of Object.keys(ISSUER_PREFIX_ENV) as CardBrand[]) {
    const configured = env[ISSUER_PREFIX_ENV[brand]]?.trim();
    if (!configured) continue;
    const result = validateIssuerPrefix(brand, configured);
    if (!result.ok) throw new Error(`${ISSUER_PREFIX_ENV[brand]}: ${result.error.message}`);
    prefixes[brand] = result.value;
  }
  return prefixes;
}
