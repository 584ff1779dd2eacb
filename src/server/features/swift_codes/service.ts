/**
 * SWIFT/BIC registrations. The parts of a BIC (party prefix, country, location, branch) are derived
 * from the code, never taken from the caller. An 8-character BIC and the same BIC with branch "XXX"
 * name the same primary office, so they count as duplicates and each finds the other.
 */
import { desc, inArray } from "drizzle-orm";
import { swiftCodes } from "../../../../db/schema.ts";
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
import type { RegisterSwiftCodeInput, SwiftCode } from "./schemas.ts";

/** The BIC itself and its primary-office twin (ABCDGB2L ⇄ ABCDGB2LXXX). */
export function equivalentBics(bic: string): string[] {
  if (bic.length === BIC_LENGTH_WITHOUT_BRANCH) return [bic, bic + PRIMARY_OFFICE_BRANCH_CODE];
  if (bic.length === BIC_LENGTH_WITH_BRANCH && bic.endsWith(PRIMARY_OFFICE_BRANCH_CODE)) {
    return [bic, bic.slice(0, BIC_LENGTH_WITHOUT_BRANCH)];
  }
  return [bic];
}

export function listSwiftCodes(db: Queryable): Promise<SwiftCode[]> {
  return db.select().from(swiftCodes).orderBy(desc(swiftCodes.createdAt), desc(swiftCodes.bicCode)).all();
}

/** The registration of `bic` or of its primary-office twin, the exact spelling first. */
export async function findSwiftCode(db: Queryable, bic: string): Promise<SwiftCode | undefined> {
  const rows = await db.select().from(swiftCodes).where(inArray(swiftCodes.bicCode, equivalentBics(bic)))
    .all();
  return rows.find((row) => row.bicCode === bic) ?? rows[0];
}

export async function registerSwiftCode(
  db: Database,
  actor: Actor,
  input: RegisterSwiftCodeInput,
): Promise<SwiftCode> {
  const parsed = validateBic(input.bicCode);
  if (!parsed.ok) throw fromDomainError({ ...parsed.error, field: "bicCode" });
  const parts = parsed.value;
  const now = new Date().toISOString();
  const validFrom = input.validFrom ?? now;
  if (input.validUntil !== null && input.validUntil <= validFrom) {
    throw new AppError("validation", "validUntil: must be later than validFrom", {
      field: "validUntil",
      fields: { validUntil: "Must be later than validFrom" },
    });
  }
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
    const record: SwiftCode = {
      id: crypto.randomUUID(),
      institutionId: input.institutionId,
      bicCode: parts.bic,
      bankCode: parts.bankCode,
      countryCode: parts.countryCode,
      locationCode: parts.locationCode,
      branchCode: parts.branchCode,
      membershipType: input.membershipType,
      status: "active",
      validFrom,
      validUntil: input.validUntil,
      createdAt: now,
      updatedAt: now,
      createdBy: actor.userId,
    };
    await tx.insert(swiftCodes).values(record);
    await recordCreation(tx, actor, "swift_code", record.id, record);
    return record;
  });
}
