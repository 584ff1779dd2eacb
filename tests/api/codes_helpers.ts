/** Helpers shared by the routing-code, SWIFT/BIC and IBAN API tests. */
import { institutions } from "../../db/schema.ts";
import type { TestApp } from "../helpers/test_app.ts";

/**
 * Inserts an institution row directly, so these tests do not depend on the institutions API.
 * Returns its id.
 */
export async function insertInstitution(
  t: TestApp,
  name = "Meridian Commercial Bank",
  extra: Partial<typeof institutions.$inferInsert> = {},
): Promise<string> {
  const id = crypto.randomUUID();
  await t.deps.db.transaction(async (tx) => {
    await tx.insert(institutions).values({
      id,
      name,
      type: "commercial",
      registrationNumber: `REG-${id.slice(0, 8)}`,
      address: "1 Treasury Square",
      phoneNumber: "+1 555 0100",
      emailAddress: "ops@meridian.test",
      status: "active",
      ...extra,
    });
  });
  return id;
}

/** ISO 7064 MOD 97-10 over a digit/letter string (letters as 10..35). */
function mod97(text: string): number {
  let remainder = 0;
  for (const ch of text) {
    const value = ch >= "A" && ch <= "Z" ? ch.charCodeAt(0) - 55 : Number(ch);
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

/** The IBAN for `bban` in `countryCode` with correct ISO 13616 check digits. */
export function ibanWithCheckDigits(countryCode: string, bban: string): string {
  const check = 98 - mod97(`${bban}${countryCode}00`);
  return `${countryCode}${String(check).padStart(2, "0")}${bban}`;
}
