/**
 * The country formats that POST /api/iban/validate checks against, cached per database.
 *
 * A snapshot is trusted for FORMAT_RECHECK_MS; after that one primary-key read of
 * iban_configs_version (bumped by triggers on every change, whichever process made it) decides
 * whether to reload the 89-odd rows. This process's own writes invalidate at once, so an
 * administrator's correction applies to the very next validation; another process's change applies
 * within FORMAT_RECHECK_MS. Concurrent misses share one load.
 */
import { eq } from "drizzle-orm";
import { ibanConfigs, ibanConfigsVersion } from "../../../../db/schema.ts";
import type { IbanCountryFormat } from "../../../domain/iban.ts";
import type { Database } from "../../db/database.ts";
import { replicaGeneration } from "../../db/replica_generation.ts";

export const FORMAT_RECHECK_MS = 1_000;
const VERSION_ROW_ID = 1;

type IbanConfigRow = typeof ibanConfigs.$inferSelect;

export function toCountryFormat(row: IbanConfigRow): IbanCountryFormat {
  return {
    countryCode: row.countryCode,
    ibanLength: row.ibanLength,
    bbanStructure: row.structure,
    bankCodeOffset: row.bankCodeOffset,
    bankCodeLength: row.bankCodeLength,
    branchCodeOffset: row.branchCodeOffset,
    branchCodeLength: row.branchCodeLength,
    accountNumberOffset: row.accountNumberOffset,
    accountNumberLength: row.accountNumberLength,
    checkDigitAlgorithm: row.checkDigitAlgorithm,
    exampleIban: row.exampleIban,
    active: row.status === "active",
  };
}

interface Snapshot {
  version: number;
  /** The replica's rebuild count when read: a rebuilt replica's version may repeat an older one. */
  replicaGeneration: number;
  formats: ReadonlyMap<string, IbanCountryFormat>;
  checkedAtMs: number;
}

class FormatCache {
  #snapshot: Snapshot | null = null;
  #loading: Promise<ReadonlyMap<string, IbanCountryFormat>> | null = null;
  /** Bumped by invalidate(), so a load that started before a write cannot store stale formats. */
  #generation = 0;

  constructor(private readonly db: Database) {}

  get(): ReadonlyMap<string, IbanCountryFormat> | Promise<ReadonlyMap<string, IbanCountryFormat>> {
    const snapshot = this.#snapshot;
    if (snapshot !== null && performance.now() - snapshot.checkedAtMs < FORMAT_RECHECK_MS) {
      return snapshot.formats;
    }
    this.#loading ??= this.#refresh().finally(() => {
      this.#loading = null;
    });
    return this.#loading;
  }

  invalidate(): void {
    this.#generation++;
    this.#snapshot = null;
    this.#loading = null;
  }

  async #refresh(): Promise<ReadonlyMap<string, IbanCountryFormat>> {
    const generation = this.#generation;
    const replica = replicaGeneration();
    const startedAtMs = performance.now();
    // The version is read before the rows: a change in between leaves a version older than the
    // rows, which only causes one extra reload, never a stale cache.
    const versionRow = await this.db.read.select({ version: ibanConfigsVersion.version })
      .from(ibanConfigsVersion).where(eq(ibanConfigsVersion.id, VERSION_ROW_ID)).get();
    const version = versionRow?.version ?? 0;
    const previous = this.#snapshot;
    let formats: ReadonlyMap<string, IbanCountryFormat>;
    if (previous !== null && previous.version === version && previous.replicaGeneration === replica) {
      formats = previous.formats;
    } else {
      const rows = await this.db.read.select().from(ibanConfigs).all();
      formats = new Map(rows.map((row) => [row.countryCode, toCountryFormat(row)]));
    }
    if (generation === this.#generation) {
      this.#snapshot = { version, replicaGeneration: replica, formats, checkedAtMs: startedAtMs };
    }
    return formats;
  }
}

const caches = new WeakMap<Database, FormatCache>();

function cacheFor(db: Database): FormatCache {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = new FormatCache(db);
    caches.set(db, cache);
  }
  return cache;
}

/** The current formats by country code; synchronous on the fast path. */
export function ibanFormats(
  db: Database,
): ReadonlyMap<string, IbanCountryFormat> | Promise<ReadonlyMap<string, IbanCountryFormat>> {
  return cacheFor(db).get();
}

/** Call after committing a change to iban_configs. */
export function invalidateIbanFormats(db: Database): void {
  cacheFor(db).invalidate();
}
