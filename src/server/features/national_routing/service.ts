/**
 * National routing registry: participants with their SWIFT and IBAN integration data. Each entry
 * gets a unique central bank code from its issuer prefix's counter (rule in
 * src/domain/national_routing.ts), assigned in the same transaction as the insert, so a rejected
 * registration consumes no code.
 */
import { desc, eq, sql } from "drizzle-orm";
import { centralBankCodeSequences, ibanConfigs, nationalRoutingRegistry } from "../../../../db/schema.ts";
import {
  centralBankCodeFor,
  defaultConnectionDetails,
  issuerPrefixOf,
} from "../../../domain/national_routing.ts";
import { type Actor, recordCreation } from "../../audit/trail.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { AppError, conflict, fromDomainError } from "../../http/errors.ts";
import { activationVersion } from "../../../domain/code_lifecycle.ts";
import { pendingChangesOf, recordCreationVersions } from "../../registry_history/code_changes.ts";
import { effectiveFromOrNow } from "../../registry_history/instants.ts";
import { recordsAsOf } from "../../registry_history/versions.ts";
import type { CreateNationalRoutingInput, NationalRoutingEntry, NationalRoutingListItem } from "./schemas.ts";

export const AUDIT_ENTITY_TYPE = "national_routing_entry" as const;

/** Every entry as in force at `asOf` (now when null), newest first, with its changes still to come. */
export async function listNationalRouting(db: Queryable, asOf: string | null): Promise<NationalRoutingListItem[]> {
  const entries = asOf === null
    // rowid breaks ties between entries registered within the same millisecond.
    ? await db.select().from(nationalRoutingRegistry)
      .orderBy(desc(nationalRoutingRegistry.registrationDate), sql`rowid DESC`).all()
    : (await recordsAsOf(db, AUDIT_ENTITY_TYPE, asOf) as NationalRoutingEntry[])
      .sort((a, b) => b.registrationDate.localeCompare(a.registrationDate));
  const pending = await pendingChangesOf(db, AUDIT_ENTITY_TYPE);
  return entries.map((entry) => ({ ...entry, pendingChanges: pending.get(entry.id) ?? [] }));
}

function issuerPrefixFor(submittedCode: string | undefined, defaultPrefix: string): string {
  if (!submittedCode) return defaultPrefix;
  const prefix = issuerPrefixOf(submittedCode);
  if (!prefix.ok) throw fromDomainError(prefix.error);
  return prefix.value;
}

async function assignCentralBankCode(tx: Tx, prefix: string): Promise<string> {
  const counter = await tx.select().from(centralBankCodeSequences)
    .where(eq(centralBankCodeSequences.prefix, prefix)).get();
  let sequence = (counter?.lastValue ?? 0) + 1;
  for (;;) {
    const code = centralBankCodeFor(prefix, sequence);
    if (!code.ok) {
      throw new AppError("conflict", code.error.message, {
        field: "centralBankCode",
        fields: { centralBankCode: code.error.message },
        extra: { reason: code.error.code },
      });
    }
    // A code may have been taken outside the counter (imported data): skip it rather than fail.
    const taken = await tx.select({ id: nationalRoutingRegistry.id }).from(nationalRoutingRegistry)
      .where(eq(nationalRoutingRegistry.centralBankCode, code.value)).get();
    if (taken === undefined) {
      await tx.insert(centralBankCodeSequences)
        .values({ prefix, lastValue: sequence })
        .onConflictDoUpdate({
          target: centralBankCodeSequences.prefix,
          set: { lastValue: sequence, updatedAt: new Date().toISOString() },
        });
      return code.value;
    }
    sequence += 1;
  }
}

async function assertIbanCountryKnown(tx: Tx, ibanPrefix: string): Promise<void> {
  const countryCode = ibanPrefix.slice(0, 2);
  const config = await tx.select({ id: ibanConfigs.id }).from(ibanConfigs)
    .where(eq(ibanConfigs.countryCode, countryCode)).get();
  if (config === undefined) {
    const message = `${countryCode} is not a country of the IBAN registry`;
    throw new AppError("validation", `ibanPrefix: ${message}`, {
      field: "ibanPrefix",
      fields: { ibanPrefix: message },
    });
  }
}

export async function createNationalRoutingEntry(
  db: Database,
  actor: Actor,
  defaultPrefix: string,
  input: CreateNationalRoutingInput,
  nowMs: number,
): Promise<NationalRoutingEntry> {
  const prefix = issuerPrefixFor(input.centralBankCode, defaultPrefix);
  const now = new Date(nowMs).toISOString();
  const effectiveFrom = effectiveFromOrNow(input.effectiveFrom, nowMs);
  // Registered for later: inactive until its date, then the status asked for (docs/national_routing.md).
  const activation = effectiveFrom > now && input.participantStatus !== "inactive"
    ? activationVersion("participantStatus", input.participantStatus, effectiveFrom)
    : null;
  return await db.transaction(async (tx) => {
    if (input.ibanPrefix !== null) await assertIbanCountryKnown(tx, input.ibanPrefix);
    const sameRegistryNumber = await tx.select({ id: nationalRoutingRegistry.id }).from(
      nationalRoutingRegistry,
    )
      .where(eq(nationalRoutingRegistry.registryNumber, input.registryNumber)).get();
    if (sameRegistryNumber !== undefined) {
      throw conflict("registryNumber", `registryNumber ${input.registryNumber} is already registered`);
    }
    const sameBankCode = await tx.select({ id: nationalRoutingRegistry.id }).from(nationalRoutingRegistry)
      .where(eq(nationalRoutingRegistry.nationalBankCode, input.nationalBankCode)).get();
    if (sameBankCode !== undefined) {
      throw conflict("nationalBankCode", `nationalBankCode ${input.nationalBankCode} is already registered`);
    }
    const entry: NationalRoutingEntry = {
      id: crypto.randomUUID(),
      centralBankCode: await assignCentralBankCode(tx, prefix),
      institutionType: input.institutionType,
      registryNumber: input.registryNumber,
      institutionName: input.institutionName,
      nationalBankCode: input.nationalBankCode,
      accountNumberFormat: input.accountNumberFormat,
      ibanPrefix: input.ibanPrefix,
      swiftBicCode: input.swiftBicCode,
      participantStatus: activation === null ? input.participantStatus : "inactive",
      connectionProtocol: input.connectionProtocol,
      settlementAccount: input.settlementAccount,
      lastRegistryUpdate: now,
      registeredBy: actor.userId,
      registrationDate: now,
      connectionDetails: input.connectionDetails ?? defaultConnectionDetails(input),
    };
    await tx.insert(nationalRoutingRegistry).values(entry);
    const people = { requestedBy: actor.userId, approvedBy: null };
    await recordCreationVersions(tx, AUDIT_ENTITY_TYPE, entry, activation, people, nowMs);
    await recordCreation(tx, actor, AUDIT_ENTITY_TYPE, entry.id, entry);
    return entry;
  });
}
