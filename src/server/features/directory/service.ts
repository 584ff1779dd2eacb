/**
 * Directory editions (docs/directory.md): what the next edition would publish, and its publication
 * at approval: the registry as of the effective date, compared with the previous edition, written as
 * CSV and fixed-width full and delta files, described by a manifest signed with the directory key,
 * stored in the database for good, with its audit row and its outbox event.
 */
import { Buffer } from "node:buffer";
import { desc, eq } from "drizzle-orm";
import { directoryEditions } from "../../../../db/schema.ts";
import {
  directoryCsvHeader,
  directoryCsvRows,
  type FlaggedRecord,
  parseDirectoryCsv,
} from "../../../domain/directory_csv.ts";
import {
  buildEdition,
  candidateRecords,
  countRows,
  type EditionCounts,
  type EditionFiles,
  overlongMessage,
  writeFixedWidth,
} from "../../../domain/directory_files.ts";
import { DIRECTORY_COLUMNS, type DirectoryRecord } from "../../../domain/directory_layout.ts";
import { EFFECTIVE_TOO_FAR, MAX_EFFECTIVE_AHEAD_DAYS } from "../../../domain/effective_dating.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import { type Queryable, statementsOf, type Tx } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import { publishEvent } from "../../events/outbox.ts";
import { AppError, badRequest, conflict } from "../../http/errors.ts";
import { recordsAsOf } from "../../registry_history/versions.ts";
import { FileBuilder, type StoredFileFacts, storedFileText, storeFile } from "./file_store.ts";
import { type DirectorySigningKey, registerDirectoryKey, signDetachedJws, signRaw } from "./signing_key.ts";

/** The files of every edition, with their media types; the manifest lists them in this order. */
export const EDITION_FILES = {
  "full.csv": "text/csv; charset=utf-8",
  "delta.csv": "text/csv; charset=utf-8",
  "full.txt": "text/plain; charset=utf-8",
  "delta.txt": "text/plain; charset=utf-8",
} as const;
export type EditionFileName = keyof typeof EDITION_FILES;

export const DIRECTORY_LINK = "/directory";
export const EDITION_AUDIT_ENTITY = "directory_edition";
/** How many changed rows and refused records the preview shows. */
export const PREVIEW_ROWS = 50;
/** Rows handed to a file at a time while it is written. */
const WRITE_BATCH_ROWS = 2_000;
const DAY_MS = 86_400_000;

/** Where an edition's inputs are read: the read handle, or the approval's transaction. */
export interface DirectoryReader {
  query: Queryable;
  statements: Statements;
}

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

/** Every edition, newest first, without the manifest's bytes. */
export async function listEditions(db: Queryable) {
  const rows = await db.select({
    number: directoryEditions.number,
    effectiveDate: directoryEditions.effectiveDate,
    previousNumber: directoryEditions.previousNumber,
    publishedAt: directoryEditions.publishedAt,
    reason: directoryEditions.reason,
    keyId: directoryEditions.keyId,
    counts: directoryEditions.counts,
  }).from(directoryEditions).orderBy(desc(directoryEditions.number)).all();
  return rows;
}

/** The previous edition's records as it published them (its full CSV, read back). */
async function publishedRecords(
  statements: Statements,
  edition: EditionRow | undefined,
): Promise<DirectoryRecord[]> {
  if (!edition) return [];
  const parsed = parseDirectoryCsv(await storedFileText(statements, edition.number, "full.csv"));
  if (parsed.errors.length > 0) throw new Error(`edition ${edition.number}'s full.csv does not parse`);
  return parsed.rows.map((row) => row.record);
}

export interface EditionPlan {
  previous: EditionRow | undefined;
  effectiveDate: string;
  files: EditionFiles;
  /** Records the fixed-width layout cannot hold, as messages; the edition cannot be published while any. */
  overlong: string[];
}

/** What an edition effective at `effectiveDate` would publish, checked against the previous edition. */
export async function planEdition(
  reader: DirectoryReader,
  effectiveDate: string,
  nowMs: number,
): Promise<EditionPlan> {
  const previous = await latestEdition(reader.query);
  checkEffectiveDate(effectiveDate, previous, nowMs);
  const [institutions, routingCodes, swiftCodes] = await Promise.all([
    recordsAsOf(reader.query, "institution", effectiveDate),
    recordsAsOf(reader.query, "routing_code", effectiveDate),
    recordsAsOf(reader.query, "swift_code", effectiveDate),
  ]);
  const candidates = candidateRecords({ institutions, routingCodes, swiftCodes }, effectiveDate);
  const files = buildEdition(await publishedRecords(reader.statements, previous), candidates);
  const overlong = files.full.map((row) => overlongMessage(row.record)).filter((message) => message !== null);
  return { previous, effectiveDate, files, overlong };
}

function checkEffectiveDate(effectiveDate: string, previous: EditionRow | undefined, nowMs: number): void {
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

/** Refuses a plan the fixed-width layout cannot hold, naming the first records that do not fit. */
export function assertPublishable(plan: EditionPlan): void {
  if (plan.overlong.length === 0) return;
  throw new AppError(
    "conflict",
    `${plan.overlong.length} record(s) do not fit the fixed-width layout: ${
      plan.overlong.slice(0, 3).join("; ")
    }`,
    { field: "effectiveDate", extra: { overlong: plan.overlong.slice(0, PREVIEW_ROWS) } },
  );
}

/** The preview's answer: counts, the first changed rows and what blocks publication. */
export function previewOf(plan: EditionPlan) {
  return {
    number: (plan.previous?.number ?? 0) + 1,
    effectiveDate: plan.effectiveDate,
    previous: plan.previous
      ? { number: plan.previous.number, effectiveDate: plan.previous.effectiveDate }
      : null,
    counts: { full: countRows(plan.files.full), delta: countRows(plan.files.delta) },
    changes: plan.files.delta.slice(0, PREVIEW_ROWS).map((row) => ({ changeFlag: row.flag, ...row.record })),
    overlong: plan.overlong.slice(0, PREVIEW_ROWS),
  };
}

async function writeRows(
  builder: FileBuilder,
  rows: readonly FlaggedRecord[],
  format: "csv" | "txt",
): Promise<void> {
  if (format === "csv") await builder.write(directoryCsvHeader());
  for (let start = 0; start < rows.length; start += WRITE_BATCH_ROWS) {
    const batch = rows.slice(start, start + WRITE_BATCH_ROWS);
    await builder.write(format === "csv" ? directoryCsvRows(batch) : writeFixedWidth(batch));
  }
}

/** Writes the four files of an edition into the transaction; their facts in manifest order. */
async function writeFiles(tx: Tx, number: number, files: EditionFiles): Promise<StoredFileFacts[]> {
  const facts: StoredFileFacts[] = [];
  for (const [name, contentType] of Object.entries(EDITION_FILES)) {
    const [part, format] = name.split(".") as ["full" | "delta", "csv" | "txt"];
    const builder = new FileBuilder(name, contentType);
    await writeRows(builder, files[part], format);
    const finished = await builder.finish();
    await storeFile(tx, number, finished);
    facts.push(finished.facts);
  }
  return facts;
}

export interface PublishInput {
  effectiveDate: string;
  reason: string;
  requestedBy: string;
  approvedBy: string;
}

/** The manifest's exact bytes: what is signed, stored and served. */
function manifestBytes(fields: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(fields, null, 2) + "\n");
}

/**
 * Publishes the next edition inside the caller's transaction (the approval's): number = latest + 1,
 * files, signed manifest, then the edition row, which closes the edition for good.
 */
export async function publishEdition(
  tx: Tx,
  actor: Actor,
  key: DirectorySigningKey,
  input: PublishInput,
  nowMs: number,
): Promise<EditionRow> {
  const plan = await planEdition({ query: tx, statements: statementsOf(tx) }, input.effectiveDate, nowMs);
  assertPublishable(plan);
  const number = (plan.previous?.number ?? 0) + 1;
  const publishedAt = new Date(nowMs).toISOString();
  const counts = { full: countRows(plan.files.full), delta: countRows(plan.files.delta) };
  const files = await writeFiles(tx, number, plan.files);
  const manifest = manifestBytes({
    format: "central-bank-registry-directory",
    formatVersion: 1,
    edition: number,
    previousEdition: plan.previous?.number ?? null,
    effectiveDate: input.effectiveDate,
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
  const row: EditionRow = {
    number,
    effectiveDate: input.effectiveDate,
    previousNumber: plan.previous?.number ?? null,
    reason: input.reason,
    publishedAt,
    requestedBy: input.requestedBy,
    approvedBy: input.approvedBy,
    keyId: key.keyId,
    counts,
    manifest: new TextDecoder().decode(manifest),
    signature: await signRaw(key, manifest),
    jws: await signDetachedJws(key, manifest),
  };
  await registerDirectoryKey(tx, key, publishedAt);
  await tx.insert(directoryEditions).values({
    ...row,
    signature: Buffer.from(new Uint8Array(row.signature)),
  });
  await recordPublication(tx, actor, row);
  return row;
}

function totalOf(counts: EditionCounts, flag: string): number {
  return Object.values(counts).reduce((sum, perType) => sum + (perType[flag] ?? 0), 0);
}

async function recordPublication(tx: Tx, actor: Actor, row: EditionRow): Promise<void> {
  const delta = row.counts.delta;
  const summary = `Directory edition ${row.number} effective ${row.effectiveDate.slice(0, 10)} published: ` +
    `${totalOf(row.counts.full, "total")} records, ${totalOf(delta, "A")} added, ${
      totalOf(delta, "M")
    } modified, ` +
    `${totalOf(delta, "D")} deleted`;
  await recordAudit(tx, actor, {
    entityType: EDITION_AUDIT_ENTITY,
    entityId: String(row.number),
    action: "publish",
    changes: { effectiveDate: row.effectiveDate, reason: row.reason, keyId: row.keyId, counts: row.counts },
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
