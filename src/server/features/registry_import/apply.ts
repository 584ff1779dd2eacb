/**
 * Applying an approved import: the approval only queues it (queueRegistryImport, in the approval's
 * transaction); the applier (applier.ts) applies it. prepareRegistryImport judges the stored file
 * again against the registry as it is then, and refuses unless that makes exactly the changes the
 * approver saw (the plan's digest); it answers the new rows, which staging.ts stages and moves, and
 * the modifications, which completeRegistryImport writes as versions in force at once
 * (registry_history/versions.ts) in the applier's final transaction. The same rules as the
 * registry's own forms hold: registration numbers unique without case, codes and BICs unique (the
 * plan checks them, the UNIQUE indexes guard them).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { institutions, registryImports, routingCodes, swiftCodes } from "../../../../db/schema.ts";
import { validateBic } from "../../../domain/bic.ts";
import type { ImportedFields, PlannedRecord } from "../../../domain/registry_import.ts";
import { ROUTING_PREFIX_LENGTH } from "../../../domain/routing_code.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Queryable, Tx } from "../../db/database.ts";
import { AppError, notFound } from "../../http/errors.ts";
import type { CreationStamp } from "../../registry_history/initial_versions.ts";
import { recordVersion, type RegistryEntityType } from "../../registry_history/versions.ts";
import { type ImportReport, judgeFile } from "./plan.ts";

/** How many of the lines that no longer apply an apply's refusal names. */
export const MAX_REFUSAL_ERRORS = 20;
/** registry_versions.summary holds at most this many characters. */
const MAX_VERSION_SUMMARY_LENGTH = 2000;
export const IMPORT_AUDIT_ENTITY = "registry_import";
const APPLY_ACTION = "apply";

/** The maker and the approver of an import, named by its versions. */
export interface ImportPeople {
  requestedBy: string;
  approvedBy: string;
}

export interface AppliedImport {
  id: string;
  appliedAt: string;
  added: number;
  modified: number;
}

/** Maps a lower-case registration number to its institution's id, for codes to point at. */
type InstitutionIds = Map<string, string>;

/** The new rows of an import, by table, with their ids: what staging.ts writes and moves. */
export interface NewRows {
  institution: (typeof institutions.$inferInsert & { id: string })[];
  routing_code: (typeof routingCodes.$inferInsert & { id: string })[];
  swift_code: (typeof swiftCodes.$inferInsert & { id: string })[];
}

function institutionRow(fields: ImportedFields, stamp: CreationStamp): NewRows["institution"][number] {
  return {
    id: crypto.randomUUID(),
    name: fields.name!,
    type: fields.type as typeof institutions.$inferInsert.type,
    registrationNumber: fields.registrationNumber!,
    address: fields.address!,
    phoneNumber: fields.phoneNumber!,
    emailAddress: fields.emailAddress!,
    lei: fields.lei,
    status: fields.status as typeof institutions.$inferInsert.status,
    createdAt: stamp.at,
    updatedAt: stamp.at,
    createdBy: stamp.requestedBy,
  };
}

function bicRow(fields: ImportedFields, institutionId: string, stamp: CreationStamp) {
  const parts = validateBic(fields.bicCode!);
  if (!parts.ok) throw new Error(`planned BIC ${fields.bicCode} is invalid`);
  const { bic, bankCode, countryCode, locationCode, branchCode } = parts.value;
  return {
    id: crypto.randomUUID(),
    institutionId,
    bicCode: bic,
    bankCode,
    countryCode,
    locationCode,
    branchCode,
    status: fields.status as typeof swiftCodes.$inferInsert.status,
    validFrom: stamp.at,
    createdAt: stamp.at,
    updatedAt: stamp.at,
    createdBy: stamp.requestedBy,
  };
}

/** The rows to insert; new institutions' ids join `ids`, for codes (and modifications) to point at. */
function newRows(added: readonly PlannedRecord[], ids: InstitutionIds, stamp: CreationStamp): NewRows {
  const ofType = (type: PlannedRecord["recordType"]) => added.filter((record) => record.recordType === type);
  const institution = ofType("INST").map((record) => institutionRow(record.fields, stamp));
  for (const row of institution) ids.set(row.registrationNumber.toLowerCase(), row.id);
  const owner = (fields: ImportedFields) => ids.get(fields.institutionKey!.toLowerCase())!;
  const routing_code = ofType("RTC").map(({ fields }) => ({
    id: crypto.randomUUID(),
    institutionId: owner(fields),
    code: fields.code!,
    prefix: fields.code!.slice(0, ROUTING_PREFIX_LENGTH),
    branchCode: fields.branchCode,
    status: fields.status as typeof routingCodes.$inferInsert.status,
    createdAt: stamp.at,
    updatedAt: stamp.at,
    createdBy: stamp.requestedBy,
  }));
  const swift_code = ofType("BIC").map(({ fields }) => bicRow(fields, owner(fields), stamp));
  return { institution, routing_code, swift_code };
}

const ENTITY_OF_RECORD: Readonly<Record<PlannedRecord["recordType"], RegistryEntityType>> = {
  INST: "institution",
  RTC: "routing_code",
  BIC: "swift_code",
};

/** "Imported: name → Acme Bank; status → active", within the history's bound. */
function modificationSummary(fields: ImportedFields): string {
  const parts = Object.entries(fields).map(([field, value]) => `${field} → ${value ?? "(none)"}`);
  return `Imported: ${parts.join("; ")}`.slice(0, MAX_VERSION_SUMMARY_LENGTH);
}

async function applyModifications(
  tx: Tx,
  modified: readonly PlannedRecord[],
  ids: InstitutionIds,
  stamp: CreationStamp,
): Promise<void> {
  const nowMs = Date.parse(stamp.at);
  for (const record of modified) {
    const { institutionKey, ...rest } = record.fields;
    const changes: Record<string, unknown> = institutionKey === undefined
      ? rest
      : { ...rest, institutionId: ids.get(institutionKey!.toLowerCase()) };
    await recordVersion(tx, {
      entityType: ENTITY_OF_RECORD[record.recordType],
      entityId: record.existingId!,
      validFrom: stamp.at,
      changes,
      summary: modificationSummary(record.fields),
      requestedBy: stamp.requestedBy,
      approvedBy: stamp.approvedBy,
      approvalRequestId: stamp.approvalRequestId,
    }, nowMs);
  }
}

async function institutionIds(db: Queryable): Promise<InstitutionIds> {
  const rows = await db.select({ id: institutions.id, key: institutions.registrationNumber }).from(
    institutions,
  ).all();
  return new Map(rows.map((row) => [row.key.toLowerCase(), row.id]));
}

/** The stored file: the content column of an import stored whole, then its chunks in order. */
async function storedText(db: Queryable, id: string, content: string): Promise<string> {
  const chunks = await db.all<{ content: string }>(
    sql`SELECT content FROM registry_import_chunks WHERE import_id = ${id} ORDER BY seq`,
  );
  return content + chunks.map((chunk) => chunk.content).join("");
}

function registryChanged(message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError(
    "conflict",
    `${message}: nothing was applied. Submit the file again for a new dry run`,
    { extra: { reason: REGISTRY_CHANGED, ...extra } },
  );
}

/** The reason an apply's refusal carries when the registry no longer takes the file as approved. */
export const REGISTRY_CHANGED = "registry_changed";

/**
 * The approval's part: the import, stored and neither applied nor already queued, is queued for the
 * applier with who approved it. Answers its id and state.
 */
export async function queueRegistryImport(
  tx: Tx,
  id: string,
  approvedBy: string,
  nowMs: number,
): Promise<{ id: string; state: "approved"; approvedAt: string }> {
  const approvedAt = new Date(nowMs).toISOString();
  const queued = await tx.update(registryImports).set({
    applyState: "approved",
    approvedBy,
    approvedAt,
    applyAttempts: 0,
    failure: null,
  }).where(
    and(eq(registryImports.id, id), isNull(registryImports.appliedAt), isNull(registryImports.applyState)),
  )
    .returning({ id: registryImports.id });
  if (queued.length === 1) return { id, state: "approved", approvedAt };
  const stored = await tx.select({ id: registryImports.id }).from(registryImports).where(
    eq(registryImports.id, id),
  )
    .get();
  if (!stored) throw notFound("Import");
  throw new AppError("conflict", "This import has already been approved");
}

/** What an apply writes, judged once the import is claimed: staged, then moved in one transaction. */
export interface PreparedImport {
  id: string;
  fileName: string | null;
  rows: number;
  counts: ImportReport["counts"];
  sha256: string;
  stamp: CreationStamp;
  additions: NewRows;
  modified: PlannedRecord[];
  /** Registration number (lower case) to institution id, the new ones included. */
  ids: InstitutionIds;
}

/**
 * Judges the stored import `id` again against the registry `db` holds now, and answers what applying
 * it writes; refused (registry_changed) when that is no longer exactly what the approver saw.
 */
export async function prepareRegistryImport(
  db: Queryable,
  id: string,
  people: ImportPeople,
  nowMs: number,
): Promise<PreparedImport> {
  const stored = await db.select().from(registryImports).where(eq(registryImports.id, id)).get();
  if (!stored) throw notFound("Import");
  if (stored.appliedAt !== null) throw new AppError("conflict", "This import has already been applied");
  const submitted = stored.report as ImportReport;
  const at = new Date(nowMs).toISOString();
  const file = {
    text: await storedText(db, id, stored.content),
    sha256: stored.sha256,
    byteSize: stored.byteSize,
  };
  const { plan, report } = await judgeFile(db, file, at);
  if (!report.valid) {
    throw registryChanged(
      `The registry changed since the dry run: ${report.errorCount} lines no longer apply`,
      { errors: report.errors.slice(0, MAX_REFUSAL_ERRORS) },
    );
  }
  if (report.planDigest !== submitted.planDigest) {
    throw registryChanged("The registry changed since the dry run: the file would now change other records");
  }
  const stamp: CreationStamp = {
    at,
    summary: "Imported",
    requestedBy: people.requestedBy,
    approvedBy: people.approvedBy,
    approvalRequestId: stored.approvalRequestId,
  };
  const ids = await institutionIds(db);
  const added = plan.records.filter((record) => record.action === "add");
  return {
    id,
    fileName: stored.fileName,
    rows: report.rows,
    counts: report.counts,
    sha256: stored.sha256,
    stamp,
    additions: newRows(added, ids, stamp),
    modified: plan.records.filter((record) => record.action === "modify"),
    ids,
  };
}

/**
 * The last step, in the final transaction once the new rows are in their tables: the modifications
 * as versions, the import marked applied, and its audit row. Answers what was applied.
 */
export async function completeRegistryImport(
  tx: Tx,
  prepared: PreparedImport,
  actor: Actor,
): Promise<AppliedImport> {
  const { id, stamp } = prepared;
  await applyModifications(tx, prepared.modified, prepared.ids, stamp);
  await tx.update(registryImports).set({
    appliedAt: stamp.at,
    appliedBy: stamp.approvedBy,
    applyState: "applied",
  })
    .where(eq(registryImports.id, id));
  await recordAudit(tx, actor, {
    entityType: IMPORT_AUDIT_ENTITY,
    entityId: id,
    action: APPLY_ACTION,
    changes: {
      after: {
        fileName: prepared.fileName,
        sha256: prepared.sha256,
        rows: prepared.rows,
        counts: prepared.counts,
      },
    },
  });
  const { institution, routing_code, swift_code } = prepared.additions;
  return {
    id,
    appliedAt: stamp.at,
    added: institution.length + routing_code.length + swift_code.length,
    modified: prepared.modified.length,
  };
}
