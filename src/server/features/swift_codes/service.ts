/**
 * SWIFT/BIC registrations. The parts of a BIC (party prefix, country, location, branch) are derived
 * from the code, never taken from the caller. An 8-character BIC and the same BIC with branch "XXX"
 * name the same primary office, so they count as duplicates and each finds the other.
 */
import { eq, inArray } from "drizzle-orm";
import { swiftCodes } from "../../../../db/schema.ts";
import { activationVersion } from "../../../domain/code_lifecycle.ts";
import {
  BIC_LENGTH_WITH_BRANCH,
  BIC_LENGTH_WITHOUT_BRANCH,
  PRIMARY_OFFICE_BRANCH_CODE,
  validateBic,
} from "../../../domain/bic.ts";
import { type Actor, recordCreation } from "../../audit/trail.ts";
import { requireInstitution } from "../institutions/service.ts";
import type { Database, Queryable } from "../../db/database.ts";
import { AppError, conflict, fromDomainError } from "../../http/errors.ts";
import { codeAnswerAt, pendingChangesOf, recordCreationVersions } from "../../registry_history/code_changes.ts";
import { effectiveFromOrNow } from "../../registry_history/instants.ts";
import { type RecordData, recordsAsOf, versionAsOf } from "../../registry_history/versions.ts";
import {
  type RegisterSwiftCodeInput,
  type SwiftCode,
  type SwiftCodeListItem,
  type SwiftCodeLookupAnswer,
  swiftCodeSchema,
} from "./schemas.ts";

/** The BIC itself and its primary-office twin (ABCDGB2L ⇄ ABCDGB2LXXX). */
export function equivalentBics(bic: string): string[] {
  if (bic.length === BIC_LENGTH_WITHOUT_BRANCH) return [bic, bic + PRIMARY_OFFICE_BRANCH_CODE];
  if (bic.length === BIC_LENGTH_WITH_BRANCH && bic.endsWith(PRIMARY_OFFICE_BRANCH_CODE)) {
    return [bic, bic.slice(0, BIC_LENGTH_WITHOUT_BRANCH)];
  }
  return [bic];
}

type SwiftCodeRow = typeof swiftCodes.$inferSelect;

const SWIFT_CODE_FIELDS = Object.keys(swiftCodeSchema.shape);

/** A BIC's answer from its whole record (a version's data or the current row) as read at `at`. */
export function swiftCodeView(data: RecordData, at: string): SwiftCode {
  return codeAnswerAt<SwiftCode>(SWIFT_CODE_FIELDS, data, at);
}

/** Every BIC as in force at `asOf` (now when null), newest first, with its changes still to come. */
export async function listSwiftCodes(db: Queryable, asOf: string | null, nowIso: string): Promise<SwiftCodeListItem[]> {
  const records: RecordData[] = asOf === null
    ? await db.select().from(swiftCodes).all()
    : await recordsAsOf(db, "swift_code", asOf);
  const pending = await pendingChangesOf(db, "swift_code");
  return records.map((data) => {
    const record = swiftCodeView(data, asOf ?? nowIso);
    return { ...record, pendingChanges: pending.get(record.id) ?? [] };
  }).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.bicCode.localeCompare(a.bicCode));
}

/** The registration of `bic` or of its primary-office twin, the exact spelling first (current table). */
export async function findSwiftCode(db: Queryable, bic: string): Promise<SwiftCodeRow | undefined> {
  const rows = await db.select().from(swiftCodes).where(inArray(swiftCodes.bicCode, equivalentBics(bic)))
    .all();
  return rows.find((row) => row.bicCode === bic) ?? rows[0];
}

/** The BIC as in force at `at`; undefined when it does not exist or was not yet registered then. */
async function resolveAt(db: Queryable, bic: string, at: string): Promise<SwiftCode | undefined> {
  const row = await findSwiftCode(db, bic);
  if (row === undefined) return undefined;
  const version = await versionAsOf(db, "swift_code", row.id, at);
  if (version !== undefined) return swiftCodeView(version.data, at);
  // A row from before versions existed (headquarters gives it its first version at start).
  return row.createdAt <= at ? swiftCodeView(row, at) : undefined;
}

/** A lookup at `at`: the BIC, and for a terminated one its successor as of the same instant. */
export async function lookupSwiftCodeAt(db: Queryable, bic: string, at: string): Promise<SwiftCodeLookupAnswer | undefined> {
  const record = await resolveAt(db, bic, at);
  if (record === undefined) return undefined;
  if (record.status !== "terminated" || record.successorBic === null) return { ...record, successor: null };
  const next = await resolveAt(db, record.successorBic, at);
  const successor = next === undefined
    ? null
    : { bic: next.bicCode, institutionId: next.institutionId, status: next.status };
  return { ...record, successor };
}

function checkedValidity(input: RegisterSwiftCodeInput, effectiveFrom: string): { validFrom: string; validUntil: string | null } {
  // A BIC registered for later is valid from that date unless the caller says otherwise.
  const validFrom = input.validFrom ?? effectiveFrom;
  if (input.validUntil !== null && input.validUntil <= validFrom) {
    throw new AppError("validation", "validUntil: must be later than validFrom", {
      field: "validUntil",
      fields: { validUntil: "Must be later than validFrom" },
    });
  }
  return { validFrom, validUntil: input.validUntil };
}

export async function registerSwiftCode(
  db: Database,
  actor: Actor,
  input: RegisterSwiftCodeInput,
  nowMs: number,
): Promise<SwiftCode> {
  const parsed = validateBic(input.bicCode);
  if (!parsed.ok) throw fromDomainError({ ...parsed.error, field: "bicCode" });
  const parts = parsed.value;
  const now = new Date(nowMs).toISOString();
  const effectiveFrom = effectiveFromOrNow(input.effectiveFrom, nowMs);
  const later = effectiveFrom > now;
  const validity = checkedValidity(input, effectiveFrom);
  return await db.transaction(async (tx) => {
    await requireInstitution(tx, input.institutionId);
    const existing = await findSwiftCode(tx, parts.bic);
    if (existing !== undefined) {
      throw conflict(
        "bicCode",
        existing.bicCode === parts.bic
          ? `BIC ${parts.bic} is already registered`
          : `BIC ${parts.bic} is already registered as ${existing.bicCode}`,
      );
    }
    const id = crypto.randomUUID();
    await tx.insert(swiftCodes).values({
      id,
      institutionId: input.institutionId,
      bicCode: parts.bic,
      bankCode: parts.bankCode,
      countryCode: parts.countryCode,
      locationCode: parts.locationCode,
      branchCode: parts.branchCode,
      membershipType: input.membershipType,
      // Registered for later: not in force before its date (docs/codes.md).
      status: later ? "inactive" : "active",
      ...validity,
      createdAt: now,
      updatedAt: now,
      createdBy: actor.userId,
    });
    const row = (await tx.select().from(swiftCodes).where(eq(swiftCodes.id, id)).get())!;
    const activation = later ? activationVersion("status", "active", effectiveFrom) : null;
    await recordCreationVersions(tx, "swift_code", row, activation, { requestedBy: actor.userId, approvedBy: null }, nowMs);
    const record = swiftCodeView(row, now);
    await recordCreation(tx, actor, "swift_code", id, record);
    return record;
  });
}
