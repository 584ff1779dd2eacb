/** Demo data (embedded database only): a few registry participants, added once each. */
import { eq } from "drizzle-orm";
import { ibanConfigs, nationalRoutingRegistry, SYSTEM_USER_ID } from "../../../../db/schema.ts";
import { CONSOLE_CENTRAL_BANK_CODE } from "../../../domain/national_routing.ts";
import type { Actor } from "../../audit/trail.ts";
import type { Seeder } from "../../startup/seeder.ts";
import type { CreateNationalRoutingInput } from "./schemas.ts";
import { createNationalRoutingEntry } from "./service.ts";

const SYSTEM_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };

const DEMO_ENTRIES: Omit<CreateNationalRoutingInput, "centralBankCode" | "effectiveFrom">[] = [
  {
    institutionType: "central_bank",
    registryNumber: "NRR-0001",
    institutionName: "National Reserve Settlement Office",
    nationalBankCode: "NRSO0001",
    accountNumberFormat: "iban-compliant",
    ibanPrefix: "DE",
    swiftBicCode: "DEUTDEFF",
    participantStatus: "active",
    connectionProtocol: "rtgs",
    settlementAccount: "DE89370400440532013000",
    connectionDetails: null,
  },
  {
    institutionType: "commercial_bank",
    registryNumber: "NRR-0002",
    institutionName: "Harbour Commercial Bank",
    nationalBankCode: "HCB00002",
    accountNumberFormat: "12-digit-checksum",
    ibanPrefix: "GB",
    swiftBicCode: "NWBKGB2L",
    participantStatus: "active",
    connectionProtocol: "iso20022",
    settlementAccount: null,
    connectionDetails: null,
  },
  {
    institutionType: "credit_union",
    registryNumber: "NRR-0003",
    institutionName: "Valley Teachers Credit Union",
    nationalBankCode: "VTCU0003",
    accountNumberFormat: "10-digit",
    ibanPrefix: null,
    swiftBicCode: null,
    participantStatus: "active",
    connectionProtocol: "ach",
    settlementAccount: null,
    connectionDetails: { messageFormats: ["ach"], currencies: ["USD"], settlementFrequency: "daily" },
  },
];

export const nationalRoutingDemoSeeder: Seeder = async (deps, log) => {
  const prefix = deps.config.features.nationalRoutingIssuerPrefix;
  let added = 0;
  for (const entry of DEMO_ENTRIES) {
    const existing = await deps.db.read.select({ id: nationalRoutingRegistry.id }).from(
      nationalRoutingRegistry,
    )
      .where(eq(nationalRoutingRegistry.registryNumber, entry.registryNumber)).get();
    if (existing !== undefined) continue;
    // The IBAN country must be in the registry; without the reference seed the entry goes without one.
    const country = entry.ibanPrefix === null ? undefined : await deps.db.read.select({ id: ibanConfigs.id })
      .from(ibanConfigs).where(eq(ibanConfigs.countryCode, entry.ibanPrefix)).get();
    await createNationalRoutingEntry(deps.db, SYSTEM_ACTOR, prefix, {
      ...entry,
      centralBankCode: CONSOLE_CENTRAL_BANK_CODE,
      ibanPrefix: country === undefined ? null : entry.ibanPrefix,
      effectiveFrom: null,
    }, deps.clock.now());
    added++;
  }
  if (added > 0) log(`seed: ${added} national routing registry entries (demo)`);
};
