/**
 * Publication of approved editions (docs/directory.md, "Publication"). The approval queues the
 * edition in its own transaction; this publisher, at headquarters or on a standalone node, builds its
 * files in one streaming pass (the registry and the previous edition read in bounded pieces, the
 * files hashed and compressed as they are written, their pieces stored a batch per transaction, each
 * within its own change deadline), then writes the edition row last, in one transaction with its
 * file rows, its audit row and its event: an edition appears whole or not at all. A build that is
 * interrupted leaves only pieces under a number no edition has; its retry removes them first.
 */
import { Buffer } from "node:buffer";
import { and, eq } from "drizzle-orm";
import { directoryEditionQueue, directoryEditions, SYSTEM_USER_ID } from "../../../../db/schema.ts";
import {
  csvLineMaxBytes,
  directoryCsvHeader,
  type FlaggedRecord,
  writeCsvLine,
} from "../../../domain/directory_csv.ts";
import { MAX_FIXED_LINE_BYTES, writeFixedWidthLine } from "../../../domain/directory_files.ts";
import { DIRECTORY_COLUMNS } from "../../../domain/directory_layout.ts";
import { type MergedRow, MergeOrderError } from "../../../domain/directory_merge.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import { type Database, statementsOf, type Tx } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import { publishEvent, publishToEach } from "../../events/outbox.ts";
import { AppError, conflict } from "../../http/errors.ts";
import type { AppDeps } from "../../http/context.ts";
import { type PeriodicTask, startPeriodic } from "../../periodic.ts";
import { CHANGE_DEADLINE_MS, withDeadline } from "../../topology/deadline.ts";
import {
  FileBuilder,
  removeOrphanChunks,
  storeChunks,
  type StoredFileFacts,
  storeFileFacts,
} from "./file_store.ts";
import { assertPublishable } from "./preview.ts";
import {
  checkEffectiveDate,
  DIRECTORY_LINK,
  EDITION_AUDIT_ENTITY,
  EDITION_FILES,
  type EditionRow,
  latestEdition,
  mergePass,
  nextQueuedEdition,
} from "./service.ts";
import {
  type DirectorySigningKey,
  directorySigningKey,
  registerDirectoryKey,
  signDetachedJws,
  signRaw,
} from "./signing_key.ts";

/** How often headquarters looks for an approved edition to publish. */
export const PUBLISHER_INTERVAL_MS = 1_000;
const PUBLISHER: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "directory publisher" };

type QueuedEdition = NonNullable<Awaited<ReturnType<typeof nextQueuedEdition>>>;

/** The registry changed while an edition was built from it: the build is made again. */
class RegistryMoved extends Error {}

export interface QueueInput {
  effectiveDate: string;
  reason: string;
  requestedBy: string;
  approvedBy: string;
  approvalRequestId: string;
}

/**
 * The approval's part, inside its transaction: the decision is recorded and the edition queued under
 * the next number. One edition publishes at a time, since each is compared with the one before it.
 */
export async function queueEdition(tx: Tx, actor: Actor, input: QueueInput, nowMs: number) {
  const publishing = await nextQueuedEdition(tx);
  if (publishing) {
    throw conflict(
      "effectiveDate",
      `Directory edition ${publishing.number} is still being published: approve this request once it is published`,
    );
  }
  const previous = await latestEdition(tx);
  checkEffectiveDate(input.effectiveDate, previous, nowMs);
  const number = (previous?.number ?? 0) + 1;
  const at = new Date(nowMs).toISOString();
  await tx.insert(directoryEditionQueue).values({ ...input, number, approvedAt: at, updatedAt: at });
  await recordAudit(tx, actor, {
    entityType: EDITION_AUDIT_ENTITY,
    entityId: String(number),
    action: "queue_publication",
    changes: {
      effectiveDate: input.effectiveDate,
      reason: input.reason,
      approvalRequestId: input.approvalRequestId,
    },
  });
  return { number, effectiveDate: input.effectiveDate, status: "publishing" as const };
}

/** One write transaction under its own change deadline, as every write at headquarters runs. */
function bounded<T>(db: Database, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return withDeadline(Date.now() + CHANGE_DEADLINE_MS, () => db.transaction(fn));
}

async function registryEpoch(statements: Statements): Promise<number> {
  const row = await statements.get<{ epoch: number }>(
    "SELECT epoch FROM change_epochs WHERE topic = 'registry'",
    [],
  );
  return row?.epoch ?? 0;
}

/**
 * Publishes the oldest approved edition, if any: its published row, or null when none waits or its
 * build failed for good (the queue then says why). A failure that may pass (the primary out of
 * reach, the registry changed meanwhile) is counted and thrown; the next run tries again.
 */
export async function publishQueuedEdition(
  deps: Pick<AppDeps, "db" | "config" | "clock">,
): Promise<EditionRow | null> {
  const entry = await nextQueuedEdition(deps.db.read);
  if (!entry) return null;
  const key = await directorySigningKey(deps.config.dataDir);
  try {
    return await buildQueuedEdition(deps, key, entry);
  } catch (error) {
    const lasting = isLasting(error);
    await recordFailure(deps, entry, error, lasting);
    if (lasting) return null;
    throw error;
  }
}

/**
 * A failure that building again cannot mend: the edition's date or layout refused (409, 400) or the
 * records out of order. "Unavailable" answers (the primary out of reach, a deadline passed) may pass.
 */
function isLasting(error: unknown): boolean {
  if (error instanceof MergeOrderError) return true;
  return error instanceof AppError && (error.code === "conflict" || error.code === "validation");
}

async function recordFailure(
  deps: Pick<AppDeps, "db" | "clock">,
  entry: QueuedEdition,
  error: unknown,
  lasting: boolean,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await bounded(deps.db, async (tx) => {
    await tx.update(directoryEditionQueue).set({
      state: lasting ? "failed" : "publishing",
      attempts: entry.attempts + 1,
      lastError: message,
      updatedAt: new Date(deps.clock.now()).toISOString(),
    }).where(and(
      eq(directoryEditionQueue.approvalRequestId, entry.approvalRequestId),
      eq(directoryEditionQueue.state, "publishing"),
    ));
    if (!lasting) return;
    await recordAudit(tx, PUBLISHER, {
      entityType: EDITION_AUDIT_ENTITY,
      entityId: String(entry.number),
      action: "publication_failed",
      changes: {
        effectiveDate: entry.effectiveDate,
        approvalRequestId: entry.approvalRequestId,
        error: message,
      },
    });
    await announceFailure(tx, entry, message);
  });
}

/** The requester and the approver of an edition that failed for good each hear why. */
async function announceFailure(tx: Tx, entry: QueuedEdition, message: string): Promise<void> {
  await publishToEach(tx, [entry.requestedBy, entry.approvedBy], {
    kind: "directory_edition_failed",
    subjectType: EDITION_AUDIT_ENTITY,
    subjectId: String(entry.number),
    summary: `Directory edition ${entry.number} effective ${entry.effectiveDate.slice(0, 10)} was not ` +
      `published: ${message}`,
    link: DIRECTORY_LINK,
    data: { edition: entry.number, effectiveDate: entry.effectiveDate, error: message },
  });
}

/** The three files written side by side as the merge yields rows, each line straight into its file's buffer. */
class EditionWriter {
  #fullCsv: FileBuilder;
  #deltaCsv: FileBuilder;
  #fullTxt: FileBuilder;

  private constructor(builders: FileBuilder[]) {
    [this.#fullCsv, this.#deltaCsv, this.#fullTxt] = builders;
  }

  static async open(db: Database, number: number): Promise<EditionWriter> {
    const sink = (name: string, seq: number, chunks: Uint8Array[]) =>
      bounded(db, (tx) => storeChunks(statementsOf(tx), number, name, seq, chunks));
    const builders = Object.entries(EDITION_FILES).map(([name, type]) => new FileBuilder(name, type, sink));
    const writer = new EditionWriter(builders);
    await writer.#fullCsv.writeText(directoryCsvHeader());
    await writer.#deltaCsv.writeText(directoryCsvHeader());
    return writer;
  }

  /** A batch of rows into the three files (the merge hands them on in batches of MERGE_BATCH_ROWS). */
  async add(rows: MergedRow[]): Promise<void> {
    const [fullCsv, deltaCsv, fullTxt] = [this.#fullCsv, this.#deltaCsv, this.#fullTxt];
    for (const { full, delta } of rows) {
      if (full) {
        const csvBytes = csvLineMaxBytes(full);
        if (!fullCsv.fits(csvBytes)) await fullCsv.makeRoom(csvBytes);
        const line = fullCsv.put((target, offset) => writeCsvLine(full, target, offset));
        if (delta === full) {
          if (!deltaCsv.fits(line.length)) await deltaCsv.makeRoom(line.length);
          deltaCsv.putBytes(line);
        }
        if (!fullTxt.fits(MAX_FIXED_LINE_BYTES)) await fullTxt.makeRoom(MAX_FIXED_LINE_BYTES);
        fullTxt.put((target, offset) => fixedWidth(full, target, offset));
      }
      if (delta && delta !== full) {
        const csvBytes = csvLineMaxBytes(delta);
        if (!deltaCsv.fits(csvBytes)) await deltaCsv.makeRoom(csvBytes);
        deltaCsv.put((target, offset) => writeCsvLine(delta, target, offset));
      }
    }
  }

  /** The files' facts, in manifest order, once their last pieces are stored. */
  async finish(): Promise<StoredFileFacts[]> {
    const facts: StoredFileFacts[] = [];
    for (const builder of [this.#fullCsv, this.#deltaCsv, this.#fullTxt]) facts.push(await builder.finish());
    return facts;
  }
}

/** A row the fixed-width layout cannot hold stops the build: the preview names every such record. */
function fixedWidth(row: FlaggedRecord, target: Uint8Array, offset: number): number {
  try {
    return writeFixedWidthLine(row, target, offset);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    assertPublishable({ overlong: [error.message], overlongCount: 1 });
    throw error;
  }
}

async function buildQueuedEdition(
  deps: Pick<AppDeps, "db" | "clock">,
  key: DirectorySigningKey,
  entry: QueuedEdition,
): Promise<EditionRow> {
  const { db } = deps;
  const epoch = await registryEpoch(db.statements);
  const previous = await latestEdition(db.read);
  if ((previous?.number ?? 0) + 1 !== entry.number) {
    throw conflict("effectiveDate", `Edition ${entry.number} no longer follows the latest edition`);
  }
  checkEffectiveDate(entry.effectiveDate, previous, Date.parse(entry.approvedAt));
  while (await bounded(db, (tx) => removeOrphanChunks(statementsOf(tx))));
  const writer = await EditionWriter.open(db, entry.number);
  const totals = await mergePass(
    db.statements,
    previous?.number ?? null,
    entry.effectiveDate,
    (rows) => writer.add(rows),
  );
  const files = await writer.finish();
  const publishedAt = new Date(deps.clock.now()).toISOString();
  const row = await editionRow(key, entry, previous?.number ?? null, totals.counts, files, publishedAt);
  await bounded(db, async (tx) => {
    const statements = statementsOf(tx);
    // Nothing the build read may have moved: the registry, the latest edition, the queue entry.
    if (await registryEpoch(statements) !== epoch) {
      throw new RegistryMoved("the registry changed during the build");
    }
    if ((await latestEdition(tx))?.number !== previous?.number) {
      throw new RegistryMoved("another edition was published");
    }
    const claimed = await tx.update(directoryEditionQueue).set({
      state: "published",
      attempts: entry.attempts + 1,
      updatedAt: publishedAt,
    })
      .where(
        and(
          eq(directoryEditionQueue.approvalRequestId, entry.approvalRequestId),
          eq(directoryEditionQueue.state, "publishing"),
        ),
      )
      .returning({ number: directoryEditionQueue.number }).all();
    if (claimed.length === 0) throw new RegistryMoved("the queued edition is no longer waiting");
    for (const facts of files) await storeFileFacts(statements, entry.number, facts);
    await registerDirectoryKey(tx, key, publishedAt);
    await tx.insert(directoryEditions).values({
      ...row,
      signature: Buffer.from(new Uint8Array(row.signature)),
    });
    await recordPublication(tx, row, entry.approvalRequestId);
  });
  return row;
}

/** The manifest's exact bytes: what is signed, stored and served. */
function manifestBytes(fields: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(fields, null, 2) + "\n");
}

async function editionRow(
  key: DirectorySigningKey,
  entry: QueuedEdition,
  previousNumber: number | null,
  counts: EditionRow["counts"],
  files: StoredFileFacts[],
  publishedAt: string,
): Promise<EditionRow> {
  const manifest = manifestBytes({
    format: "central-bank-registry-directory",
    formatVersion: 1,
    edition: entry.number,
    previousEdition: previousNumber,
    effectiveDate: entry.effectiveDate,
    publishedAt,
    keyId: key.keyId,
    signatureAlgorithm: "Ed25519",
    columns: DIRECTORY_COLUMNS,
    counts,
    files: files.map((file) => ({
      name: file.name,
      contentType: file.contentType,
      size: file.sizeBytes,
      sha256: file.sha256,
    })),
  });
  return {
    number: entry.number,
    effectiveDate: entry.effectiveDate,
    previousNumber,
    reason: entry.reason,
    publishedAt,
    requestedBy: entry.requestedBy,
    approvedBy: entry.approvedBy,
    keyId: key.keyId,
    counts,
    manifest: new TextDecoder().decode(manifest),
    signature: await signRaw(key, manifest),
    jws: await signDetachedJws(key, manifest),
  };
}

function totalOf(counts: EditionRow["counts"]["full"], flag: string): number {
  return Object.values(counts).reduce((sum, perType) => sum + (perType[flag] ?? 0), 0);
}

async function recordPublication(tx: Tx, row: EditionRow, approvalRequestId: string): Promise<void> {
  const delta = row.counts.delta;
  const summary = `Directory edition ${row.number} effective ${row.effectiveDate.slice(0, 10)} published: ` +
    `${totalOf(row.counts.full, "total")} records, ${totalOf(delta, "A")} added, ${
      totalOf(delta, "M")
    } modified, ` +
    `${totalOf(delta, "D")} deleted`;
  await recordAudit(tx, PUBLISHER, {
    entityType: EDITION_AUDIT_ENTITY,
    entityId: String(row.number),
    action: "publish",
    changes: {
      effectiveDate: row.effectiveDate,
      reason: row.reason,
      keyId: row.keyId,
      counts: row.counts,
      requestedBy: row.requestedBy,
      approvedBy: row.approvedBy,
      approvalRequestId,
    },
  });
  await publishEvent(tx, {
    kind: "directory_edition_published",
    subjectType: EDITION_AUDIT_ENTITY,
    subjectId: String(row.number),
    summary,
    link: DIRECTORY_LINK,
    data: {
      edition: row.number,
      effectiveDate: row.effectiveDate,
      publishedAt: row.publishedAt,
      counts: row.counts,
      manifest: `/api/directory/editions/${row.number}/manifest.json`,
    },
    audience: { roles: ["operator", "approver", "auditor"] },
  });
}

/** Headquarters and standalone nodes only: regional nodes never write. */
export function startDirectoryPublisher(deps: AppDeps): PeriodicTask {
  return startPeriodic("Directory publisher", PUBLISHER_INTERVAL_MS, async () => {
    await publishQueuedEdition(deps);
  });
}
