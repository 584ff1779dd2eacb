/**
 * The registry over time at scale (issue 33's figure): 1,000,000 rows of registry_versions over
 * 100,000 institutions (four versions each) and 300,000 routing codes (two each), seeded in SQL
 * through the real migrations. Measured, one lookup at a time:
 *
 * - versionAsOf() in process for a random record at a random instant (before it existed, between
 *   versions, now, still to come). Target: p95 < 5 ms.
 * - the same reads through the app: GET /api/institutions/{id}?asOf= via app.request(), signed in.
 * - the start's check that every record has a version (registry_history/initial_versions.ts) when
 *   nothing is missing, as every headquarters and standalone start runs it. Target: ≤ 100 ms. (It
 *   was an anti-join over every registry row, 397 ms at this size; since migration 1520 it looks
 *   only at the rows inserted since the previous start.)
 *
 *   node_modules/.bin/deno run -A bench/registry_as_of.ts   (REGISTRY_BENCH_SCALE=0.1 for a smoke run)
 */
import NativeDatabase from "libsql";
import { SYSTEM_USER_ID } from "../db/schema.ts";
import { recordMissingInitialVersions } from "../src/server/registry_history/initial_versions.ts";
import { type RegistryEntityType, versionAsOf } from "../src/server/registry_history/versions.ts";
import { createTestApp, type TestApp } from "../tests/helpers/test_app.ts";
import { BENCH_QUICK, type BenchRow, formatMs, formatNumber, renderTerminalTable } from "./lib/report.ts";

const SCALE = Number(Deno.env.get("REGISTRY_BENCH_SCALE") ?? 1);
const AS_OF_INSTITUTIONS = Math.round(100_000 * SCALE);
const AS_OF_CODES = 3 * AS_OF_INSTITUTIONS;
const VERSIONS_PER_INSTITUTION = 4;
const VERSIONS_PER_CODE = 2;
const AS_OF_TARGET_P95_MS = 5;
const INITIAL_VERSIONS_TARGET_MS = 100;
const LOOKUPS = BENCH_QUICK ? 2_000 : 10_000;
const HTTP_LOOKUPS = BENCH_QUICK ? 500 : 2_000;
const WARMUP_LOOKUPS = 200;
const INITIAL_VERSIONS_RUNS = 5;
/** Registrations spread over five years; a record's versions divide the time from its registration to now. */
const HISTORY_MS = 5 * 365 * 86_400_000;
/** Instants drawn up to a year past now: a scheduled version may be that far ahead. */
const FUTURE_MS = 365 * 86_400_000;

const institutionId = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;
const codeId = (i: number) => `00000000-0000-4000-9000-${i.toString(16).padStart(12, "0")}`;

/**
 * The rows and their versions in a few statements (a bench fixture, not business writes). Version k
 * of n starts at registration + k/n of the time since; the last version of every fourth record is
 * still to come (scheduled), as effective-dated changes leave them.
 */
function seed(databasePath: string, startMs: number, nowMs: number): void {
  const db = new NativeDatabase(databasePath);
  const iso = (ms: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`;
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("PRAGMA cache_size = -262144");
    db.exec("BEGIN IMMEDIATE");
    const registered = (count: number) => `${startMs} + (i * ${HISTORY_MS}) / ${count}`;
    db.exec(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${AS_OF_INSTITUTIONS})
      INSERT INTO institutions (id, name, type, registration_number, address, phone_number, email_address,
        number_of_branches, swift_participant, status, created_at, updated_at, created_by)
      SELECT printf('00000000-0000-4000-8000-%012x', i), 'Registry Bench Bank ' || i, 'commercial',
        printf('RAO-%07d', i), i || ' Market Street', '+1 202 555 0100', 'desk' || i || '@bench.example', 3, 0,
        'active', ${iso(registered(AS_OF_INSTITUTIONS))}, ${
        iso(registered(AS_OF_INSTITUTIONS))
      }, '${SYSTEM_USER_ID}'
      FROM n`,
    );
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${AS_OF_CODES})
      INSERT INTO routing_codes (id, institution_id, code, prefix, status, created_at, updated_at, created_by)
      SELECT printf('00000000-0000-4000-9000-%012x', i), printf('00000000-0000-4000-8000-%012x', i / 3),
        printf('RAO%09d', i), 'RAO', 'active', ${iso(registered(AS_OF_CODES))}, ${
      iso(registered(AS_OF_CODES))
    },
        '${SYSTEM_USER_ID}'
      FROM n`);
    seedVersions(db, "institution", "institutions", VERSIONS_PER_INSTITUTION, nowMs);
    seedVersions(db, "routing_code", "routing_codes", VERSIONS_PER_CODE, nowMs);
    db.exec("COMMIT");
    db.exec("ANALYZE");
  } finally {
    db.close();
  }
}

function seedVersions(
  db: NativeDatabase.Database,
  entityType: RegistryEntityType,
  table: string,
  perRecord: number,
  nowMs: number,
): void {
  // Each record's whole row as its data, as recordVersion keeps it; the version number in its summary.
  const columns = (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all([]) as { name: string }[])
    .map(({ name }) => `'${name.replace(/_(.)/g, (_, c: string) => c.toUpperCase())}', t.${name}`);
  const msOf = (at: string) => `(julianday(${at}) - 2440587.5) * 86400000.0`;
  const startOf = (k: string) =>
    `CASE WHEN t.rowid % 4 = 0 AND ${k} = ${perRecord - 1} THEN ${nowMs} + (t.rowid % 360 + 1) * 86400000.0
      ELSE ${msOf("t.created_at")} + ${k} * (${nowMs} - ${msOf("t.created_at")}) / ${perRecord} END`;
  const iso = (ms: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`;
  db.exec(`WITH RECURSIVE k(v) AS (SELECT 0 UNION ALL SELECT v + 1 FROM k WHERE v + 1 < ${perRecord})
    INSERT INTO registry_versions (entity_type, entity_id, valid_from, valid_to, data, changes, summary,
      applied_at, created_at)
    SELECT '${entityType}', t.id, ${iso(startOf("k.v"))},
      CASE WHEN k.v + 1 < ${perRecord} THEN ${iso(startOf("(k.v + 1)"))} END,
      json_object(${columns.join(", ")}), json_object('status', t.status), 'Version ' || (k.v + 1),
      CASE WHEN t.rowid % 4 = 0 AND k.v = ${perRecord - 1} THEN NULL ELSE t.created_at END, t.created_at
    FROM ${table} t CROSS JOIN k ORDER BY t.id, k.v`);
}

/** The machine's 1-minute load average: on a shared machine the tail of a sub-millisecond lookup is time spent descheduled. */
async function loadAverage(): Promise<string> {
  try {
    return (await Deno.readTextFile("/proc/loadavg")).split(" ")[0];
  } catch {
    return "unknown";
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A random record of either kind and a random instant from before the registry to a year ahead. */
function randomLookup(startMs: number, nowMs: number): { type: RegistryEntityType; id: string; at: string } {
  const institution = Math.random() < 0.5;
  const id = institution
    ? institutionId(Math.floor(Math.random() * AS_OF_INSTITUTIONS))
    : codeId(Math.floor(Math.random() * AS_OF_CODES));
  const at = new Date(startMs + Math.random() * (nowMs + FUTURE_MS - startMs)).toISOString();
  return { type: institution ? "institution" : "routing_code", id, at };
}

async function timeInProcess(t: TestApp, startMs: number, nowMs: number): Promise<number[]> {
  const timings: number[] = [];
  for (let n = 0; n < WARMUP_LOOKUPS + LOOKUPS; n++) {
    const { type, id, at } = randomLookup(startMs, nowMs);
    const started = performance.now();
    await versionAsOf(t.deps.db.read, type, id, at);
    if (n >= WARMUP_LOOKUPS) timings.push(performance.now() - started);
  }
  return timings.sort((a, b) => a - b);
}

async function timeHttp(
  t: TestApp,
  startMs: number,
  nowMs: number,
): Promise<{ timings: number[]; statuses: Set<number> }> {
  const cookie = await t.login();
  const timings: number[] = [];
  const statuses = new Set<number>();
  for (let n = 0; n < WARMUP_LOOKUPS + HTTP_LOOKUPS; n++) {
    const id = institutionId(Math.floor(Math.random() * AS_OF_INSTITUTIONS));
    const at = new Date(startMs + Math.random() * (nowMs + FUTURE_MS - startMs)).toISOString();
    const started = performance.now();
    const res = await t.request("GET", `/api/institutions/${id}?asOf=${encodeURIComponent(at)}`, { cookie });
    await res.arrayBuffer();
    statuses.add(res.status);
    if (n >= WARMUP_LOOKUPS) timings.push(performance.now() - started);
  }
  return { timings: timings.sort((a, b) => a - b), statuses };
}

/**
 * The seed's rows and versions went in in plain SQL, so the trigger queued every row: the first call
 * is the start just after such a load (it finds every version there); the timed ones are later starts.
 */
async function timeInitialVersions(
  t: TestApp,
): Promise<{ sorted: number[]; added: number; afterLoadMs: number }> {
  const loaded = performance.now();
  let added = await recordMissingInitialVersions(t.deps.db);
  const afterLoadMs = performance.now() - loaded;
  const sorted: number[] = [];
  for (let run = 0; run < INITIAL_VERSIONS_RUNS; run++) {
    const started = performance.now();
    added += await recordMissingInitialVersions(t.deps.db);
    sorted.push(performance.now() - started);
  }
  return { sorted: sorted.sort((a, b) => a - b), added, afterLoadMs };
}

function latencyRow(what: string, sorted: number[], targetMs: number | null, note: string): BenchRow {
  const p95 = percentile(sorted, 95);
  return {
    what,
    reference: "—",
    ours: `p95 ${formatMs(p95)}`,
    ratio: null,
    target: targetMs === null ? "—" : `p95 < ${formatMs(targetMs)}`,
    pass: targetMs === null ? null : p95 < targetMs,
    note: `p50 ${formatMs(percentile(sorted, 50))}, p99 ${formatMs(percentile(sorted, 99))}, ${
      formatNumber(sorted.length)
    } lookups; ${note}`,
  };
}

export async function registryAsOfBench(log: (line: string) => void): Promise<BenchRow[]> {
  const t = await createTestApp();
  try {
    const nowMs = Date.now();
    const startMs = nowMs - HISTORY_MS;
    const seeding = performance.now();
    seed(t.deps.db.url.replace(/^file:/, ""), startMs, nowMs);
    const total = AS_OF_INSTITUTIONS * VERSIONS_PER_INSTITUTION + AS_OF_CODES * VERSIONS_PER_CODE;
    const size = `${formatNumber(total)} versions of ${formatNumber(AS_OF_INSTITUTIONS)} institutions and ${
      formatNumber(AS_OF_CODES)
    } routing codes`;
    log(`registry as-of: seeded ${size} in ${formatNumber((performance.now() - seeding) / 1000, 1)} s`);
    const initial = await timeInitialVersions(t);
    log(`registry as-of: initial versions check ${initial.sorted.map((ms) => formatMs(ms)).join(", ")}`);
    const inProcess = await timeInProcess(t, startMs, nowMs);
    const loadInProcess = await loadAverage();
    const http = await timeHttp(t, startMs, nowMs);
    const loadHttp = await loadAverage();
    log(`registry as-of: HTTP statuses ${[...http.statuses].join(", ")}`);
    const median = initial.sorted[Math.floor(initial.sorted.length / 2)];
    return [
      latencyRow(
        `as-of lookup (versionAsOf, in process), ${size}`,
        inProcess,
        AS_OF_TARGET_P95_MS,
        `random record and instant; load average ${loadInProcess} on ${navigator.hardwareConcurrency} cores`,
      ),
      latencyRow(
        `as-of read GET /api/institutions/{id}?asOf= via app.request(), ${size}`,
        http.timings,
        null,
        `signed in, answers ${
          [...http.statuses].join("/")
        } (404 before registration); load average ${loadHttp}`,
      ),
      {
        what: `start: every record has a version (initial_versions.ts), ${size}, nothing missing`,
        reference: "—",
        ours: `median ${formatMs(median)}`,
        ratio: null,
        target: `≤ ${formatMs(INITIAL_VERSIONS_TARGET_MS)}`,
        pass: median <= INITIAL_VERSIONS_TARGET_MS && initial.added === 0,
        note: `${INITIAL_VERSIONS_RUNS} runs: ${
          initial.sorted.map((ms) => formatMs(ms)).join(", ")
        }; ${initial.added} added; ` +
          `the first start after the bulk load (every row queued) ${formatMs(initial.afterLoadMs)}`,
      },
    ];
  } finally {
    await t.close();
  }
}

if (import.meta.main) {
  const log = (line: string) => console.error(`[as-of ${new Date().toISOString().slice(11, 19)}] ${line}`);
  console.log(renderTerminalTable(await registryAsOfBench(log)));
}
