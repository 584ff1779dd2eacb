/**
 * The applier of approved registry imports, at headquarters and on a standalone node (never on a
 * regional one): an approval only queues its import, because a large import outlasts the deadline
 * every change has on the replicated topology (topology/deadline.ts). Each queued import is claimed
 * ("applying") and applied in ONE transaction under a deadline of its own, sized to the largest
 * import: all of it commits or none. A refusal (the registry changed since the dry run) marks it
 * failed with the reason; any other failure leaves it "applying", and the next poll (or the next
 * start, after a crash) applies it again, up to MAX_IMPORT_APPLY_ATTEMPTS times. The requester and
 * the approver hear the outcome (event registry_import_finished).
 */
import { SYSTEM_USER_ID } from "../../../../db/schema.ts";
import { MAX_IMPORT_ROWS } from "../../../domain/registry_import.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import { type Database, statementsOf, type Tx } from "../../db/database.ts";
import { publishToEach } from "../../events/outbox.ts";
import { AppError } from "../../http/errors.ts";
import { type PeriodicTask, startPeriodic } from "../../periodic.ts";
import { CHANGE_DEADLINE_MS, withDeadline } from "../../topology/deadline.ts";
import {
  completeRegistryImport,
  IMPORT_AUDIT_ENTITY,
  MAX_REFUSAL_ERRORS,
  prepareRegistryImport,
  REGISTRY_CHANGED,
} from "./apply.ts";
import { discardStaged, moveStaged, stageRows } from "./staging.ts";

/** How often the applier looks for an approved import (a read of the local copy when there is none). */
export const IMPORT_APPLY_POLL_MS = 1_000;
/**
 * The final transaction's allowance per record (moving staged rows through the tables' triggers,
 * their versions, modifications): 100,000 records took 16.3 s in process (about 0.16 ms each,
 * docs/bench.md); about twice that.
 */
export const IMPORT_APPLY_MS_PER_ROW = 0.3;
/** The final transaction's deadline: the change deadline plus the allowance for the largest import. */
export const IMPORT_APPLY_DEADLINE_MS = CHANGE_DEADLINE_MS + MAX_IMPORT_ROWS * IMPORT_APPLY_MS_PER_ROW;
/** Tries before an import that keeps failing for another reason than a refusal is marked failed. */
export const MAX_IMPORT_APPLY_ATTEMPTS = 3;
const MAX_FAILURE_MESSAGE_LENGTH = 1000;
const APPLY_FAILED_ACTION = "apply_failed";
const ATTEMPTS_EXHAUSTED = "attempts_exhausted";
const FINISHED_EVENT = "registry_import_finished";
const APPLIER_ACTOR: Actor = {
  userId: SYSTEM_USER_ID,
  ipAddress: null,
  userAgent: "registry-import-applier",
};

/** Why an import failed, as people read it on the import's page. */
export interface ImportFailure {
  /** registry_changed: the file no longer applies as approved; attempts_exhausted: it kept failing. */
  reason: typeof REGISTRY_CHANGED | typeof ATTEMPTS_EXHAUSTED;
  message: string;
  errors?: { line: number; field: string; message: string }[];
}

interface QueuedImport {
  [column: string]: unknown;
  id: string;
  fileName: string | null;
  rows: number;
  submittedBy: string;
  approvedBy: string;
  approvalRequestId: string | null;
  applyAttempts: number;
  failure: string | null;
}

const QUEUED_SELECT = `SELECT id, file_name AS fileName, row_count AS rows, submitted_by AS submittedBy,
  approved_by AS approvedBy, approval_request_id AS approvalRequestId, apply_attempts AS applyAttempts, failure
  FROM registry_imports WHERE apply_state IN ('approved', 'applying') ORDER BY approved_at, id LIMIT 1`;

/** Claims the oldest approved import (or one a stopped process left "applying"), counting the attempt. */
async function claimNext(db: Database): Promise<QueuedImport | null> {
  // The local copy answers "nothing queued" without a write on the primary at every poll.
  if (!await db.statements.get(QUEUED_SELECT, [])) return null;
  return await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    const next = await statements.get<QueuedImport>(QUEUED_SELECT, []);
    if (!next) return null;
    await statements.run(
      "UPDATE registry_imports SET apply_state = 'applying', apply_attempts = apply_attempts + 1 WHERE id = ?",
      [next.id],
    );
    return { ...next, applyAttempts: next.applyAttempts + 1 };
  });
}

/** The requester and the approver each hear how their import ended. */
async function announce(tx: Tx, queued: QueuedImport, summary: string, data: Record<string, unknown>) {
  await publishToEach(tx, [queued.submittedBy, queued.approvedBy], {
    kind: FINISHED_EVENT,
    subjectType: IMPORT_AUDIT_ENTITY,
    subjectId: queued.id,
    summary,
    link: "/directory/import",
    data: { importId: queued.id, ...data },
  });
}

const fileOf = (queued: QueuedImport) => queued.fileName ?? "a directory file";

/**
 * What changes whenever the registry does: every change writes a version (or queues a row for its
 * first one, registry_unversioned) and a scheduled version taking effect leaves the due ones.
 */
const REGISTRY_MARK = `SELECT (SELECT coalesce(max(seq), 0) FROM registry_versions) || '/' ||
  (SELECT count(*) FROM registry_versions WHERE applied_at IS NULL) || '/' ||
  (SELECT count(*) FROM registry_unversioned) AS mark`;

async function markIn(tx: Tx): Promise<string> {
  return (await statementsOf(tx).get<{ mark: string }>(REGISTRY_MARK, []))!.mark;
}

/** Only the latest claim of an import commits it: an older attempt (another process's) gives way. */
async function stillOurs(tx: Tx, queued: QueuedImport): Promise<void> {
  const row = await statementsOf(tx).get<{ n: number }>(
    `SELECT count(*) AS n FROM registry_imports WHERE id = ? AND apply_state = 'applying' AND applied_at IS NULL
      AND apply_attempts = ?`,
    [queued.id, queued.applyAttempts],
  );
  if (row!.n !== 1) throw new Error("Another attempt took this import over; this one gives way");
}

/** Thrown in the final transaction when the registry changed while the import was staged: tried again. */
class ChangedWhileStaging extends Error {
  constructor() {
    super("The registry changed while the import was being staged; it is applied again from a new judgement");
  }
}

/**
 * One attempt: the import judged against the registry now, its new rows staged in bounded batches,
 * then ONE transaction that checks the registry did not change meanwhile, moves the rows with their
 * versions, writes the modifications, marks it applied with its audit row, and tells both people.
 */
async function applyOne(db: Database, queued: QueuedImport, nowMs: number): Promise<void> {
  const people = { requestedBy: queued.submittedBy, approvedBy: queued.approvedBy };
  await discardStaged(db, queued.id);
  // The judgement reads the local copy: brought up to the primary first, then marked, so that a
  // change after the mark shows as a different mark in the final transaction.
  await db.replica?.syncNow();
  const mark = (await db.statements.get<{ mark: string }>(REGISTRY_MARK, []))!.mark;
  const prepared = await prepareRegistryImport(db.read, queued.id, people, nowMs);
  await stageRows(db, queued.id, prepared.additions);
  const finalStarted = performance.now();
  await withDeadline(Date.now() + IMPORT_APPLY_DEADLINE_MS, () =>
    db.transaction(async (tx) => {
      if (await markIn(tx) !== mark) throw new ChangedWhileStaging();
      await stillOurs(tx, queued);
      await moveStaged(tx, queued.id, prepared.additions, prepared.stamp);
      const applied = await completeRegistryImport(tx, prepared, APPLIER_ACTOR);
      await announce(
        tx,
        queued,
        `The registry import of ${fileOf(queued)} was applied: ${queued.rows} records ` +
          `(${applied.added} added, ${applied.modified} modified)`,
        { state: "applied", added: applied.added, modified: applied.modified },
      );
    }));
  // The final transaction's length is what the replicated topology bounds: operators watch it.
  console.log(
    `Applied the registry import ${queued.id} (${queued.rows} records); its final transaction took ${
      Math.round(performance.now() - finalStarted)
    } ms`,
  );
  await discardStaged(db, queued.id);
}

/** Marks the import failed with its reason, its audit row and the outcome for both people. */
async function recordFailure(db: Database, queued: QueuedImport, failure: ImportFailure): Promise<void> {
  await withDeadline(Date.now() + CHANGE_DEADLINE_MS, () =>
    db.transaction(async (tx) => {
      await statementsOf(tx).run(
        "UPDATE registry_imports SET apply_state = 'failed', failure = ? WHERE id = ? AND applied_at IS NULL",
        [JSON.stringify(failure), queued.id],
      );
      await recordAudit(tx, APPLIER_ACTOR, {
        entityType: IMPORT_AUDIT_ENTITY,
        entityId: queued.id,
        action: APPLY_FAILED_ACTION,
        changes: { after: { fileName: queued.fileName, reason: failure.reason, message: failure.message } },
      });
      await announce(
        tx,
        queued,
        `The registry import of ${fileOf(queued)} failed; nothing was applied: ${failure.message}`,
        { state: "failed" },
      );
    }));
}

/** The database's own words: a wrapping "Failed query" error would repeat the file's rows. */
function messageOf(error: unknown): string {
  let cause = error;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  return (cause instanceof Error ? cause.message : String(cause)).slice(0, MAX_FAILURE_MESSAGE_LENGTH);
}

/** Keeps the last error of an attempt that will be tried again, for the failure that may follow. */
async function keepError(db: Database, queued: QueuedImport, error: unknown): Promise<void> {
  await withDeadline(
    Date.now() + CHANGE_DEADLINE_MS,
    () =>
      db.transaction((tx) =>
        statementsOf(tx).run(
          "UPDATE registry_imports SET failure = ? WHERE id = ? AND apply_state = 'applying'",
          [
            JSON.stringify({ reason: ATTEMPTS_EXHAUSTED, message: messageOf(error) }),
            queued.id,
          ],
        )
      ),
  );
}

function refusalOf(error: unknown): ImportFailure | null {
  if (!(error instanceof AppError) || error.details.extra?.reason !== REGISTRY_CHANGED) return null;
  const errors = error.details.extra.errors as ImportFailure["errors"];
  const failure: ImportFailure = { reason: REGISTRY_CHANGED, message: error.message };
  return errors === undefined ? failure : { ...failure, errors: errors.slice(0, MAX_REFUSAL_ERRORS) };
}

/**
 * Applies every queued import, oldest first; answers how many it settled (applied or failed). An
 * attempt that fails for another reason than a refusal stops the round: the next one tries again.
 */
export async function applyQueuedImports(db: Database, nowMs: () => number): Promise<number> {
  let settled = 0;
  for (;;) {
    const queued = await claimNext(db);
    if (!queued) return settled;
    if (queued.applyAttempts > MAX_IMPORT_APPLY_ATTEMPTS) {
      const last = queued.failure === null
        ? ""
        : `: ${(JSON.parse(queued.failure) as ImportFailure).message}`;
      await recordFailure(db, queued, {
        reason: ATTEMPTS_EXHAUSTED,
        message: `Applying failed ${MAX_IMPORT_APPLY_ATTEMPTS} times${last}`.slice(
          0,
          MAX_FAILURE_MESSAGE_LENGTH,
        ),
      });
      settled++;
      continue;
    }
    try {
      await applyOne(db, queued, nowMs());
      settled++;
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === null) {
        console.error(
          `Applying the registry import ${queued.id} failed; it is tried again: ${messageOf(error)}`,
        );
        await keepError(db, queued, error);
        return settled;
      }
      await recordFailure(db, queued, refusal);
      settled++;
    }
  }
}

/** Headquarters and standalone nodes: applies approved imports as they come. */
export function startImportApplier(db: Database, nowMs: () => number): PeriodicTask {
  return startPeriodic("Registry import applier", IMPORT_APPLY_POLL_MS, async () => {
    await applyQueuedImports(db, nowMs);
  });
}
