/**
 * Reference seed: the 89 country formats of SWIFT IBAN Registry release 102, from the generated
 * db/seed/iban_registry_r102.json (scripts/gen_iban_registry.ts). Inserts only countries that are
 * missing, so it is idempotent and never overwrites an administrator's correction. Later releases
 * land through migrations (docs/codes.md).
 */
import registry from "../../../../db/seed/iban_registry_r102.json" with { type: "json" };
import { ibanConfigs, SYSTEM_USER_ID } from "../../../../db/schema.ts";
import type { IbanRegistryEntry } from "../../../domain/iban_registry.ts";
import type { Actor } from "../../audit/trail.ts";
import type { Seeder } from "../../startup/seeder.ts";
import { invalidateIbanFormats } from "./format_cache.ts";
import { insertIbanConfig } from "./service.ts";

export const IBAN_REGISTRY_RELEASE = "102 (June 2026)";
const SYSTEM_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };

export const ibanRegistrySeeder: Seeder = async (deps, log) => {
  const entries = registry as IbanRegistryEntry[];
  const inserted = await deps.db.transaction(async (tx) => {
    const existing = new Set(
      (await tx.select({ countryCode: ibanConfigs.countryCode }).from(ibanConfigs).all()).map((row) =>
        row.countryCode
      ),
    );
    // One timestamp for the whole release keeps the seeded rows in country order in the list.
    const seededAt = new Date().toISOString();
    let count = 0;
    for (const entry of entries) {
      if (existing.has(entry.countryCode)) continue;
      await insertIbanConfig(
        tx,
        SYSTEM_ACTOR,
        {
          countryCode: entry.countryCode,
          countryName: entry.countryName,
          ibanLength: entry.ibanLength,
          bankCodeLength: entry.bankCodeLength,
          accountNumberLength: entry.accountNumberLength,
          structure: entry.bbanStructure,
          bankCodeOffset: entry.bankCodeOffset,
          branchCodeOffset: entry.branchCodeOffset,
          branchCodeLength: entry.branchCodeLength,
          accountNumberOffset: entry.accountNumberOffset,
          sepa: entry.sepa,
          registryRelease: IBAN_REGISTRY_RELEASE,
          checkDigitAlgorithm: entry.checkDigitAlgorithm,
          exampleIban: entry.exampleIban,
          status: "active",
        },
        "seed",
        seededAt,
      );
      count++;
    }
    return count;
  });
  if (inserted > 0) {
    invalidateIbanFormats(deps.db);
    log(`IBAN formats: seeded ${inserted} countries of registry release ${IBAN_REGISTRY_RELEASE}`);
  }
};
