/**
 * Bulk import of the registry (docs/directory_import.md): a dry run judges a file and writes
 * nothing; a submission stores the file, known by its SHA-256, and files one four-eyes request
 * whose approval queues it for the applier (applier.ts, apply.ts). The same file again answers the
 * import it already is.
 */
import { statusAt, type StoredApprovalStatus } from "../../../domain/approval.ts";
import type { Actor } from "../../audit/trail.ts";
import { type Database, databaseInTransaction, type Queryable, statementsOf } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import { AppError, notFound } from "../../http/errors.ts";
import {
  type ApprovalRequestDto,
  displayName,
  fileApprovalRequest,
  type RequestDraft,
} from "../approvals/four_eyes.ts";
import type { ImportFailure } from "./applier.ts";
import { type ImportReport, judgeFile, sha256Hex } from "./plan.ts";

/**
 * Where an import stands: waiting for its approver; approved and queued, being applied, applied, or
 * failed (nothing applied); or its request was declined or lapsed.
 */
export const IMPORT_STATES = [
  "pending_approval",
  "approved",
  "applying",
  "applied",
  "failed",
  "rejected",
  "cancelled",
  "expired",
] as const;
export type ImportState = typeof IMPORT_STATES[number];

/** States in which the same file submitted again answers the import as it is. */
const SETTLED_OR_WAITING: readonly ImportState[] = ["pending_approval", "approved", "applying", "applied"];

export interface ImportDto {
  id: string;
  sha256: string;
  fileName: string | null;
  byteSize: number;
  rows: number;
  state: ImportState;
  approvalRequestId: string | null;
  submittedBy: string;
  submittedByName: string;
  submittedAt: string;
  approvedAt: string | null;
  approvedByName: string | null;
  appliedAt: string | null;
  appliedByName: string | null;
  /** Why it failed (state "failed"): a message, and the lines that no longer apply when the registry changed. */
  failure: ImportFailure | null;
  counts: ImportReport["counts"];
}

export type ImportDetail = ImportDto & { report: ImportReport };

/** A stored import as read back: the DTO's fields, with the report as stored and its request's state. */
interface ImportRow extends Omit<ImportDto, "state" | "counts" | "failure"> {
  [column: string]: unknown;
  report: string;
  applyState: "approved" | "applying" | "applied" | "failed" | null;
  failure: string | null;
  requestStatus: StoredApprovalStatus | null;
  requestExpiresAt: string | null;
}

const IMPORT_SELECT =
  `SELECT i.id, i.sha256, i.file_name AS fileName, i.byte_size AS byteSize, i.row_count AS rows,
    i.report, i.approval_request_id AS approvalRequestId, i.submitted_by AS submittedBy,
    ${displayName("s")} AS submittedByName, i.submitted_at AS submittedAt, i.approved_at AS approvedAt,
    CASE WHEN i.approved_by IS NULL THEN NULL ELSE ${displayName("v")} END AS approvedByName,
    i.applied_at AS appliedAt, CASE WHEN i.applied_by IS NULL THEN NULL ELSE ${
    displayName("p")
  } END AS appliedByName,
    i.apply_state AS applyState, i.failure, a.status AS requestStatus, a.expires_at AS requestExpiresAt
  FROM registry_imports i
  JOIN users s ON s.id = i.submitted_by
  LEFT JOIN users v ON v.id = i.approved_by
  LEFT JOIN users p ON p.id = i.applied_by
  LEFT JOIN approval_requests a ON a.id = i.approval_request_id`;

function stateOf(row: ImportRow, now: Date): ImportState {
  if (row.appliedAt !== null) return "applied";
  // The approval queued it (approved), the applier took it (applying) or refused it (failed).
  if (row.applyState !== null) return row.applyState;
  if (row.requestStatus === null || row.requestExpiresAt === null) return "cancelled";
  const status = statusAt(row.requestStatus, row.requestExpiresAt, now);
  return status === "pending" ? "pending_approval" : status;
}

function toDetail(row: ImportRow, now: Date): ImportDetail {
  const report = JSON.parse(row.report) as ImportReport;
  const {
    requestStatus: _status,
    requestExpiresAt: _expires,
    report: _report,
    applyState: _apply,
    ...fields
  } = row;
  const state = stateOf(row, now);
  // A failure noted on an attempt that will be tried again is not the import's outcome.
  const failure = state === "failed" && row.failure !== null
    ? JSON.parse(row.failure) as ImportFailure
    : null;
  return { ...fields, state, failure, counts: report.counts, report };
}

function toDto(row: ImportRow, now: Date): ImportDto {
  const { report: _report, ...dto } = toDetail(row, now);
  return dto;
}

/** Every import, newest first, without their reports. */
export async function listImports(statements: Statements, now: Date): Promise<ImportDto[]> {
  const rows = await statements.all<ImportRow>(`${IMPORT_SELECT} ORDER BY i.submitted_at DESC, i.id`, []);
  return rows.map((row) => toDto(row, now));
}

export async function getImport(statements: Statements, id: string, now: Date): Promise<ImportDetail> {
  const row = await statements.get<ImportRow>(`${IMPORT_SELECT} WHERE i.id = ?`, [id]);
  if (!row) throw notFound("Import");
  return toDetail(row, now);
}

/** The uploaded bytes as text: the layout is UTF-8 (a byte-order mark is allowed). */
function decodeFile(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("validation", "The file is not UTF-8 text", {
      field: "file",
      fields: { file: "Not UTF-8 text" },
    });
  }
}

/** Judges the file against the registry now, within `maxChanges` (importChangeLimit); writes nothing. */
export async function dryRun(
  db: Queryable,
  bytes: Uint8Array,
  now: Date,
  maxChanges: number,
): Promise<ImportReport> {
  const file = { text: decodeFile(bytes), sha256: sha256Hex(bytes), byteSize: bytes.length };
  return (await judgeFile(db, file, now.toISOString(), maxChanges)).report;
}

export type SubmitOutcome =
  | { kind: "existing"; import: ImportDto }
  | { kind: "submitted"; import: ImportDto; request: ApprovalRequestDto };

function importDraft(id: string, fileName: string | null, report: ImportReport): RequestDraft {
  const { counts } = report;
  return {
    kind: "registry_import",
    payload: { importId: id, sha256: report.sha256 },
    summary: {
      description: `Import ${
        fileName ?? "a directory file"
      } (${report.rows} records): add ${counts.institutions.add} institutions, ${counts.routingCodes.add} routing codes and ${counts.bics.add} BICs; modify ${
        counts.institutions.modify + counts.routingCodes.modify + counts.bics.modify
      } records`,
      importId: id,
      fileName,
      sha256: report.sha256,
      rows: report.rows,
      institutionsToAdd: counts.institutions.add,
      institutionsToModify: counts.institutions.modify,
      routingCodesToAdd: counts.routingCodes.add,
      routingCodesToModify: counts.routingCodes.modify,
      bicsToAdd: counts.bics.add,
      bicsToModify: counts.bics.modify,
    },
    amountMinor: null,
    currency: null,
    // The approver's apply needs the stored file, still unapplied: refused now if that cannot hold.
    rehearse: async (inner) => {
      const row = await inner.statements.get<{ appliedAt: string | null; applyState: string | null }>(
        "SELECT applied_at AS appliedAt, apply_state AS applyState FROM registry_imports WHERE id = ?",
        [id],
      );
      if (!row) throw notFound("Import");
      if (row.appliedAt !== null) throw new AppError("conflict", "This import has already been applied");
      if (row.applyState !== null) throw new AppError("conflict", "This import has already been approved");
    },
  };
}

/**
 * Characters per stored chunk of a file: at most 768 KiB of UTF-8, well below the largest argument
 * sqld takes in one request (a 7 MB file in one argument is refused).
 */
export const IMPORT_CHUNK_CHARS = 262_144;

/** Stores the file's text as ordered chunks of the import `id`. */
async function storeChunks(statements: Statements, id: string, text: string): Promise<void> {
  for (let seq = 0; seq * IMPORT_CHUNK_CHARS < text.length; seq++) {
    const chunk = text.slice(seq * IMPORT_CHUNK_CHARS, (seq + 1) * IMPORT_CHUNK_CHARS);
    await statements.run("INSERT INTO registry_import_chunks (import_id, seq, content) VALUES (?, ?, ?)", [
      id,
      seq,
      chunk,
    ]);
  }
}

const FILE_HAS_ERRORS = "The file has errors: correct the lines the report names, then submit it again";

/** A failed (or declined) import submitted again starts over: judged now, waiting for a new approval. */
async function restartImport(
  statements: Statements,
  id: string,
  fileName: string | null,
  report: ImportReport,
) {
  await statements.run(
    `UPDATE registry_imports SET report = ?, file_name = ?, apply_state = NULL, approved_by = NULL,
      approved_at = NULL, apply_attempts = 0, failure = NULL WHERE id = ?`,
    [JSON.stringify(report), fileName, id],
  );
}

interface NewImport {
  id: string;
  fileName: string | null;
  text: string;
  byteSize: number;
  report: ImportReport;
  actor: Actor;
  now: Date;
}

/** A new import: its row, and the file in chunks. */
async function storeImport(statements: Statements, file: NewImport): Promise<void> {
  await statements.run(
    `INSERT INTO registry_imports (id, sha256, file_name, byte_size, row_count, content, report, submitted_by,
      submitted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      file.id,
      file.report.sha256,
      file.fileName,
      file.byteSize,
      file.report.rows,
      "",
      JSON.stringify(file.report),
      file.actor.userId,
      file.now.toISOString(),
    ],
  );
  await storeChunks(statements, file.id, file.text);
}

/** A submission's particulars: the file's name, the request's reason, now, and the change limit. */
export interface Submission {
  fileName: string | null;
  reason: string | null;
  now: Date;
  /** importChangeLimit of this node's role. */
  maxChanges: number;
}

/**
 * Stores the file and files its four-eyes request, or answers the import the same file already is
 * (waiting or applied). A file whose request was rejected, withdrawn or has lapsed is judged again
 * and files a new request for the same import.
 */
export async function submitImport(
  db: Database,
  actor: Actor,
  bytes: Uint8Array,
  { fileName, reason, now, maxChanges }: Submission,
): Promise<SubmitOutcome> {
  const sha256 = sha256Hex(bytes);
  const known = await db.statements.get<ImportRow>(`${IMPORT_SELECT} WHERE i.sha256 = ?`, [sha256]);
  if (known && SETTLED_OR_WAITING.includes(stateOf(known, now))) {
    return { kind: "existing", import: toDto(known, now) };
  }
  const text = decodeFile(bytes);
  const { report } = await judgeFile(
    db.read,
    { text, sha256, byteSize: bytes.length },
    now.toISOString(),
    maxChanges,
  );
  if (!report.valid) throw new AppError("validation", FILE_HAS_ERRORS, { field: "file", extra: { report } });
  return await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    const current = await statements.get<ImportRow>(`${IMPORT_SELECT} WHERE i.sha256 = ?`, [sha256]);
    // A concurrent submission of the same file got there first: its import is the answer.
    if (current && SETTLED_OR_WAITING.includes(stateOf(current, now))) {
      return { kind: "existing", import: toDto(current, now) };
    }
    const id = current?.id ?? crypto.randomUUID();
    if (current) await restartImport(statements, id, fileName, report);
    else await storeImport(statements, { id, fileName, text, byteSize: bytes.length, report, actor, now });
    const request = await fileApprovalRequest(
      databaseInTransaction(db, tx),
      actor,
      importDraft(id, fileName, report),
      reason,
    );
    await statements.run(
      "UPDATE registry_imports SET approval_request_id = ?, submitted_by = ?, submitted_at = ? WHERE id = ?",
      [
        request.id,
        actor.userId,
        now.toISOString(),
        id,
      ],
    );
    return {
      kind: "submitted",
      import: toDto((await statements.get<ImportRow>(`${IMPORT_SELECT} WHERE i.id = ?`, [id]))!, now),
      request,
    };
  });
}
