/**
 * What the next edition would publish (GET /api/directory/next, and the check before an edition is
 * requested): one streaming pass that keeps the counts and only the first PREVIEW_ROWS changed rows,
 * cached per effective date, previous edition and registry epoch, since a pass over 400,000 records
 * takes seconds and nothing in its answer changes until the registry or the editions do.
 */
import type { FlaggedRecord } from "../../../domain/directory_csv.ts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../db/database.ts";
import { EpochCache } from "../../db/change_epochs.ts";
import { checkEffectiveDate, latestEdition, mergePass, type PassTotals, PREVIEW_ROWS } from "./service.ts";

/** Previews kept: a few dates being looked at, each a few kilobytes. */
const PREVIEW_CACHE_ENTRIES = 16;

export interface EditionPreview {
  number: number;
  effectiveDate: string;
  previous: { number: number; effectiveDate: string } | null;
  counts: PassTotals["counts"];
  changes: Record<string, string>[];
  overlong: string[];
  overlongCount: number;
}

const previews = new WeakMap<Database, EpochCache<string, Promise<EditionPreview>>>();

function cacheOf(db: Database): EpochCache<string, Promise<EditionPreview>> {
  let cache = previews.get(db);
  if (!cache) previews.set(db, cache = new EpochCache(PREVIEW_CACHE_ENTRIES));
  return cache;
}

/** The next edition's preview at `effectiveDate`, checked against the previous edition. */
export async function previewEdition(
  db: Database,
  effectiveDate: string,
  nowMs: number,
): Promise<EditionPreview> {
  // The epoch is read before the registry, so that a change meanwhile makes the entry stale, never fresh.
  const epoch = (await db.epochs.fresh()).registry;
  const previous = await latestEdition(db.read);
  checkEffectiveDate(effectiveDate, previous, nowMs);
  const key = `${previous?.number ?? 0}|${effectiveDate}`;
  const cache = cacheOf(db);
  const cached = cache.get(key, epoch);
  if (cached) return await cached;
  const computed = computePreview(db, effectiveDate, previous ?? null);
  cache.set(key, computed, epoch);
  // A failed pass is not kept: the next call tries again.
  computed.catch(() => cache.delete(key));
  return await computed;
}

async function computePreview(
  db: Database,
  effectiveDate: string,
  previous: { number: number; effectiveDate: string } | null,
): Promise<EditionPreview> {
  const changes: FlaggedRecord[] = [];
  const totals = await mergePass(db.statements, previous?.number ?? null, effectiveDate, (rows) => {
    for (const row of rows) {
      if (changes.length >= PREVIEW_ROWS) return;
      if (row.delta) changes.push(row.delta);
    }
  });
  return {
    number: (previous?.number ?? 0) + 1,
    effectiveDate,
    previous: previous ? { number: previous.number, effectiveDate: previous.effectiveDate } : null,
    counts: totals.counts,
    changes: changes.map((row) => ({ changeFlag: row.flag, ...row.record })),
    overlong: totals.overlong,
    overlongCount: totals.overlongCount,
  };
}

/** Refuses an edition the fixed-width layout cannot hold, naming the first records that do not fit. */
export function assertPublishable(totals: Pick<PassTotals, "overlong" | "overlongCount">): void {
  if (totals.overlongCount === 0) return;
  throw new AppError(
    "conflict",
    `${totals.overlongCount} record(s) do not fit the fixed-width layout: ${
      totals.overlong.slice(0, 3).join("; ")
    }`,
    { field: "effectiveDate", extra: { overlong: totals.overlong } },
  );
}
