/**
 * Directory editions (docs/directory.md): the editions as stored, the queue of approved editions
 * still being published, and the one pass both the preview and the publisher make: the registry as
 * of the effective date merged, record by record, with the previous edition's full file.
 */
import { and, asc, desc, eq, gt, ne } from "drizzle-orm";
import { directoryEditionQueue, directoryEditions } from "../../../../db/schema.ts";
import {
  countRow,
  type EditionCounts,
  emptyCounts,
  overlongMessage,
} from "../../../domain/directory_files.ts";
import { type MergedRow, mergeEdition } from "../../../domain/directory_merge.ts";
import { EFFECTIVE_TOO_FAR, MAX_EFFECTIVE_AHEAD_DAYS } from "../../../domain/effective_dating.ts";
import type { Queryable } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import { badRequest, conflict } from "../../http/errors.ts";
import { publishedRecords, registryCandidates } from "./records.ts";

/**
 * The files of every edition, with their media types; the manifest lists them in this order. The
 * fixed-width layout comes as a full file only: its padded lines make it five times the CSV's size,
 * and a delta is small enough for the CSV.
 */
export const EDITION_FILES = {
  "full.csv": "text/csv; charset=utf-8",
  "delta.csv": "text/csv; charset=utf-8",
  "full.txt": "text/plain; charset=utf-8",
} as const;
export type EditionFileName = keyof typeof EDITION_FILES;

export const DIRECTORY_LINK = "/directory";
export const EDITION_AUDIT_ENTITY = "directory_edition";
/** How many changed rows and refused records the preview shows. */
export const PREVIEW_ROWS = 50;
const DAY_MS = 86_400_000;

export interface EditionRow {
  number: number;
  effectiveDate: string;
  previousNumber: number | null;
  reason: string;
  publishedAt: string;
  requestedBy: string | null;
  approvedBy: string | null;
  keyId: string;
  counts: { full: EditionCounts; delta: EditionCounts };
  manifest: string;
  signature: ArrayBuffer | Uint8Array;
  jws: string;
}

export async function latestEdition(db: Queryable): Promise<EditionRow | undefined> {
  return await db.select().from(directoryEditions).orderBy(desc(directoryEditions.number)).limit(1).get() as
    | EditionRow
    | undefined;
}

export async function editionByNumber(db: Queryable, number: number): Promise<EditionRow | undefined> {
  return await db.select().from(directoryEditions).where(eq(directoryEditions.number, number)).get() as
    | EditionRow
    | undefined;
}

/** An approved edition not yet published: waiting for its build, in it, or failed. */
export async function queuedEditions(db: Queryable, after: number) {
  return await db.select().from(directoryEditionQueue)
    .where(and(ne(directoryEditionQueue.state, "published"), gt(directoryEditionQueue.number, after)))
    .orderBy(desc(directoryEditionQueue.number), desc(directoryEditionQueue.approvedAt)).all();
}

/**
 * Every edition, newest first, without the manifest's bytes: the published ones, and above them an
 * approved edition still publishing (or whose publication failed, until a later one is published).
 */
export async function listEditions(db: Queryable) {
  const published = await db.select({
    number: directoryEditions.number,
    effectiveDate: directoryEditions.effectiveDate,
    previousNumber: directoryEditions.previousNumber,
    publishedAt: directoryEditions.publishedAt,
    reason: directoryEditions.reason,
    keyId: directoryEditions.keyId,
    counts: directoryEditions.counts,
  }).from(directoryEditions).orderBy(desc(directoryEditions.number)).all();
  // A failed number is taken again by the next approval: each number shows its latest entry only.
  const queued = (await queuedEditions(db, published[0]?.number ?? 0))
    .filter((entry, index, all) => index === 0 || all[index - 1].number !== entry.number);
  return [
    ...queued.map((entry) => ({
      number: entry.number,
      effectiveDate: entry.effectiveDate,
      previousNumber: entry.number > 1 ? entry.number - 1 : null,
      publishedAt: null,
      reason: entry.reason,
      keyId: null,
      counts: null,
      status: entry.state as "publishing" | "failed",
      approvedAt: entry.approvedAt,
      error: entry.state === "failed" ? entry.lastError : null,
    })),
    ...published.map((edition) => ({
      ...edition,
      status: "published" as const,
      approvedAt: null,
      error: null,
    })),
  ];
}

/** The oldest approved edition waiting for its build, if any. */
export async function nextQueuedEdition(db: Queryable) {
  return await db.select().from(directoryEditionQueue).where(eq(directoryEditionQueue.state, "publishing"))
    .orderBy(asc(directoryEditionQueue.number)).limit(1).get();
}

/** An edition's date: at most MAX_EFFECTIVE_AHEAD_DAYS ahead, and after the previous edition's. */
export function checkEffectiveDate(
  effectiveDate: string,
  previous: { number: number; effectiveDate: string } | undefined,
  nowMs: number,
): void {
  if (Date.parse(effectiveDate) > nowMs + MAX_EFFECTIVE_AHEAD_DAYS * DAY_MS) {
    throw badRequest(EFFECTIVE_TOO_FAR, { effectiveDate: EFFECTIVE_TOO_FAR });
  }
  if (previous && effectiveDate <= previous.effectiveDate) {
    throw conflict(
      "effectiveDate",
      `Must be after the effective date of edition ${previous.number} (${previous.effectiveDate})`,
    );
  }
}

/** What one pass over an edition found: its counts, and the records the fixed-width layout cannot hold. */
export interface PassTotals {
  counts: { full: EditionCounts; delta: EditionCounts };
  /** The first PREVIEW_ROWS such records, as messages. */
  overlong: string[];
  overlongCount: number;
}

/**
 * One pass over the next edition: the registry in force at `effectiveDate` merged with the previous
 * edition's full file, each read in bounded pieces; `onRows` sees every row in file order, a batch at
 * a time, and may stop the pass by throwing. Memory stays bounded whatever the registry's size.
 */
export async function mergePass(
  statements: Statements,
  previousNumber: number | null,
  effectiveDate: string,
  onRows: (rows: MergedRow[]) => Promise<void> | void,
): Promise<PassTotals> {
  const totals: PassTotals = {
    counts: { full: emptyCounts(), delta: emptyCounts() },
    overlong: [],
    overlongCount: 0,
  };
  const batches = mergeEdition(
    publishedRecords(statements, previousNumber),
    registryCandidates(statements, effectiveDate),
  );
  for await (const rows of batches) {
    for (const row of rows) {
      if (row.full) {
        countRow(totals.counts.full, row.full);
        const message = overlongMessage(row.full.record);
        if (message !== null && totals.overlongCount++ < PREVIEW_ROWS) totals.overlong.push(message);
      }
      if (row.delta) countRow(totals.counts.delta, row.delta);
    }
    await onRows(rows);
  }
  return totals;
}
