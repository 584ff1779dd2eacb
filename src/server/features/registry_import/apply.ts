/**
 * Applying an approved import: the approval only queues it (queueRegistryImport, in the approval's
 * transaction); the applier (applier.ts) applies it in one transaction of its own. The stored file
 * is judged again against the registry as it is then, and applied only when that makes exactly the
 * changes the approver saw (the plan's digest); otherwise nothing is written. New records are
 * inserted in bounded batches with their first versions written in one statement per batch;
 * modifications are versions in force at once (registry_history/versions.ts). The same rules as the
 * registry's own forms hold: registration numbers unique without case, codes and BICs unique (the
 * plan checks them, the UNIQUE indexes guard them).
 */
import { and, eq, isNull } from "drizzle-orm";
import { institutions, registryImports, routingCodes, swiftCodes } from "../../../../db/schema.ts";
import { validateBic } from "../../../domain/bic.ts";
import type { ImportedFields, PlannedRecord } from "../../../domain/registry_import.ts";
import { ROUTING_PREFIX_LENGTH } from "../../../domain/routing_code.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Tx } from "../../db/database.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { type CreationStamp, recordBulkCreationVersions } from "../../registry_history/initial_versions.ts";
import { recordVersion, type RegistryEntityType } from "../../registry_history/versions.ts";
import { type ImportReport, judgeFile } from "./plan.ts";

/** Rows per INSERT: about 20 columns each stays far below SQLite's bound on bound parameters. */
export const IMPORT_BATCH_ROWS = 500;
/** How many of the lines that no longer apply an apply's refusal names. */
export const MAX_REFUSAL_ERRORS = 20;
/** registry_versions.summary holds at most this many characters. */
const MAX_VERSION_SUMMARY_LENGTH = 2000;
export const IMPORT_AUDIT_ENTITY = "registry_import";
const APPLY_ACTION = "apply";

export interface ImportPeople {
  actor: Actor;
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

function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += IMPORT_BATCH_ROWS) {
    out.push(items.slice(start, start + IMPORT_BATCH_ROWS));
  }
  return out;
}

async function insertBatched<Row extends { id: string }>(
  tx: Tx,
  entityType: RegistryEntityType,
  rows: readonly Row[],
  insert: (batch: Row[]) => Promise<unknown>,
  stamp: CreationStamp,
): Promise<void> {
  for (const batch of batches(rows)) {
    await insert(batch);
    await recordBulkCreationVersions(tx, entityType, batch.map((row) => row.id), stamp);
  }
}

function institutionRow(fields: ImportedFields, stamp: CreationStamp): typeof institutions.$inferInsert {
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

async function insertAdditions(
  tx: Tx,
  added: readonly PlannedRecord[],
  ids: InstitutionIds,
  stamp: CreationStamp,
) {
  const ofType = (type: PlannedRecord["recordType"]) => added.filter((record) => record.recordType === type);
  const newInstitutions = ofType("INST").map((record) => institutionRow(record.fields, stamp));
  for (const row of newInstitutions) ids.set(row.registrationNumber.toLowerCase(), row.id!);
  await insertBatched(
    tx,
    "institution",
    newInstitutions as { id: string }[],
    (batch) => tx.insert(institutions).values(batch as typeof newInstitutions),
    stamp,
  );
  const owner = (fields: ImportedFields) => ids.get(fields.institutionKey!.toLowerCase())!;
  const codes = ofType("RTC").map(({ fields }) => ({
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
  await insertBatched(tx, "routing_code", codes, (batch) => tx.insert(routingCodes).values(batch), stamp);
  const bics = ofType("BIC").map(({ fields }) => {
    const parts = validateBic(fields.bicCode!);
    if (!parts.ok) throw new Error(`planned BIC ${fields.bicCode} is invalid`);
    const { bic, bankCode, countryCode, locationCode, branchCode } = parts.value;
    return {
      id: crypto.randomUUID(),
      institutionId: owner(fields),
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
  });
  await insertBatched(tx, "swift_code", bics, (batch) => tx.insert(swiftCodes).values(batch), stamp);
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

async function institutionIds(tx: Tx): Promise<InstitutionIds> {
  const rows = await tx.select({ id: institutions.id, key: institutions.registrationNumber }).from(
    institutions,
  ).all();
  return new Map(rows.map((row) => [row.key.toLowerCase(), row.id]));
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
  }).where(and(eq(registryImports.id, id), isNull(registryImports.appliedAt), isNull(registryImports.applyState)))
    .returning({ id: registryImports.id });
  if (queued.length === 1) return { id, state: "approved", approvedAt };
  const stored = await tx.select({ id: registryImports.id }).from(registryImports).where(eq(registryImports.id, id))
    .get();
  if (!stored) throw notFound("Import");
  throw new AppError("conflict", "This import has already been approved");
}

/** Applies the stored import `id` as approved; all of it or, on any refusal, none of it. */
export async function applyRegistryImport(
  tx: Tx,
  id: string,
  people: ImportPeople,
  nowMs: number,
): Promise<AppliedImport> {
  const stored = await tx.select().from(registryImports).where(eq(registryImports.id, id)).get();
  if (!stored) throw notFound("Import");
  if (stored.appliedAt !== null) throw new AppError("conflict", "This import has already been applied");
  const submitted = stored.report as ImportReport;
  const at = new Date(nowMs).toISOString();
  const file = { text: stored.content, sha256: stored.sha256, byteSize: stored.byteSize };
  const { plan, report } = await judgeFile(tx, file, at);
  if (!report.valid) {
    throw registryChanged(
      `The registry changed since the dry run: ${report.errorCount} lines no longer apply`,
      {
        errors: report.errors.slice(0, MAX_REFUSAL_ERRORS),
      },
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
  const ids = await institutionIds(tx);
  const added = plan.records.filter((record) => record.action === "add");
  const modified = plan.records.filter((record) => record.action === "modify");
  await insertAdditions(tx, added, ids, stamp);
  await applyModifications(tx, modified, ids, stamp);
  await tx.update(registryImports).set({ appliedAt: at, appliedBy: people.approvedBy, applyState: "applied" })
    .where(eq(registryImports.id, id));
  await recordAudit(tx, people.actor, {
    entityType: IMPORT_AUDIT_ENTITY,
    entityId: id,
    action: APPLY_ACTION,
    changes: {
      after: { fileName: stored.fileName, sha256: stored.sha256, rows: report.rows, counts: report.counts },
    },
  });
  return { id, appliedAt: at, added: added.length, modified: modified.length };
}
