/**
 * Publishing a directory edition of 100,000 institutions with 300,000 codes (200,000 routing codes and
 * 100,000 BICs): the registry read as of the effective date from registry_versions, the full and delta
 * files in CSV and fixed width, the manifest and its signatures, stored piece by piece in bounded
 * transactions and the edition row last, as headquarters' publisher does it. Seeds a temporary
 * database with straight SQL (a fixture, not business writes), gives every row its first version in one
 * statement per table, queues the edition as an approval does, then times publishQueuedEdition().
 * Target: ≤ 10 s, and the peak memory of the process that publishes within the server's 150 MiB target
 * (docs/bench.md): the publication runs in a fresh child process on the seeded data folder, started with
 * the server's V8 flags, as headquarters' publisher would run in the server, so the seeding's own
 * memory does not count. The next edition's preview is timed there too, before the publication.
 *
 * Run alone: `node_modules/.bin/deno run -A bench/directory_publish.ts`
 * (DIRECTORY_BENCH_INSTITUTIONS scales the registry down for a smoke run; codes stay three per institution.)
 */
import { sql } from "drizzle-orm";
import { formatRoutingCode } from "../src/domain/routing_code.ts";
import { recordMissingInitialVersions } from "../src/server/registry_history/initial_versions.ts";
import { publishQueuedEdition, queueEdition } from "../src/server/features/directory/publisher.ts";
import { previewEdition } from "../src/server/features/directory/preview.ts";
import { SYSTEM_USER_ID } from "../db/schema.ts";
import { createTestApp, type TestApp } from "../tests/helpers/test_app.ts";
import { SERVER_V8_FLAGS } from "../scripts/start.ts";
import { type BenchRow, formatNumber } from "./lib/report.ts";
import { institutionAt } from "./institutions_search.ts";

const INSTITUTIONS = Number(Deno.env.get("DIRECTORY_BENCH_INSTITUTIONS") ?? 100_000);
const ROUTING_CODES = INSTITUTIONS * 2;
const BICS = INSTITUTIONS;
const INSERT_BATCH = 500;
export const TARGET_PUBLISH_MS = 10_000;
/** The server's peak memory target (docs/bench.md, the CPU-cost runs). */
export const TARGET_PEAK_MIB = 150;
const KIB_PER_MIB = 1024;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A unique 8-character BIC for the i-th code: four letters from i, country US, location 33. */
function bicAt(i: number): string {
  let code = "";
  for (let rest = i, n = 0; n < 4; n++, rest = Math.floor(rest / 26)) code = LETTERS[rest % 26] + code;
  return `${code}US33`;
}

async function insertRows(
  t: TestApp,
  count: number,
  row: (i: number) => ReturnType<typeof sql>,
  head: string,
) {
  for (let from = 0; from < count; from += INSERT_BATCH * 20) {
    await t.deps.db.transaction(async (tx) => {
      for (let batch = from; batch < Math.min(from + INSERT_BATCH * 20, count); batch += INSERT_BATCH) {
        const rows = [];
        for (let i = batch; i < Math.min(batch + INSERT_BATCH, count); i++) rows.push(row(i));
        await tx.run(sql`${sql.raw(head)} VALUES ${sql.join(rows, sql`, `)}`);
      }
    });
  }
}

async function seed(t: TestApp, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const ids: string[] = [];
  await insertRows(
    t,
    INSTITUTIONS,
    (i) => {
      const r = institutionAt(i, INSTITUTIONS);
      ids.push(r.id);
      return sql`(${r.id}, ${r.name}, ${r.type}, ${r.registrationNumber}, '1 Main Street', '+1 202 555 0100',
      ${r.emailAddress}, ${r.status}, ${r.createdAt}, ${r.createdAt}, ${SYSTEM_USER_ID})`;
    },
    `INSERT INTO institutions (id, name, type, registration_number, address, phone_number, email_address,
      status, created_at, updated_at, created_by)`,
  );
  const createdAt = new Date(Date.now() - 86_400_000).toISOString();
  await insertRows(
    t,
    ROUTING_CODES,
    (i) =>
      sql`(${crypto.randomUUID()}, ${ids[i % INSTITUTIONS]}, ${formatRoutingCode("DIR", i + 1)}, 'DIR',
      ${String(i % 1000).padStart(3, "0")}, 'active', ${createdAt}, ${createdAt})`,
    "INSERT INTO routing_codes (id, institution_id, code, prefix, branch_code, status, created_at, updated_at)",
  );
  await insertRows(
    t,
    BICS,
    (i) => {
      const bic = bicAt(i);
      return sql`(${crypto.randomUUID()}, ${ids[i % INSTITUTIONS]}, ${bic}, ${bic.slice(0, 4)}, 'US', '33',
      'active', ${createdAt}, ${createdAt}, ${createdAt})`;
    },
    `INSERT INTO swift_codes (id, institution_id, bic_code, bank_code, country_code, location_code, status,
      valid_from, created_at, updated_at)`,
  );
  await recordMissingInitialVersions(t.deps.db);
  await t.deps.db.readClient.execute("ANALYZE");
  log(
    `seeded ${INSTITUTIONS} institutions, ${ROUTING_CODES} routing codes, ${BICS} BICs with their versions in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
}

async function memoryKiB(field: "VmHWM" | "VmRSS"): Promise<number> {
  const status = await Deno.readTextFile("/proc/self/status");
  return Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
}

const BENCH_ACTOR = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "bench" };

/** The approval's part, as its executor does it, on a request row of the fixture's own. */
async function queueBenchEdition(t: TestApp, effectiveDate: string): Promise<void> {
  const approvalRequestId = crypto.randomUUID();
  const now = new Date().toISOString();
  await t.deps.db.transaction(async (tx) => {
    await tx.run(
      sql`INSERT INTO approval_requests (id, kind, status, payload, summary, requested_by, request_reason,
      requested_at, expires_at) VALUES (${approvalRequestId}, 'directory_edition', 'approved', '{}', '{}',
      ${SYSTEM_USER_ID}, 'Bench edition', ${now}, ${now})`,
    );
    await queueEdition(tx, BENCH_ACTOR, {
      effectiveDate,
      reason: "Bench edition",
      requestedBy: SYSTEM_USER_ID,
      approvedBy: SYSTEM_USER_ID,
      approvalRequestId,
    }, Date.now());
  });
}

interface PublishFigures {
  previewMs: number;
  elapsedMs: number;
  residentBeforeMiB: number;
  peakMiB: number;
  sizes: string;
}

/** The child's part: boot on the seeded folder, preview, publish, and report. */
async function publishInThisProcess(dataDir: string, effectiveDate: string): Promise<PublishFigures> {
  const t = await createTestApp({}, { dataDir });
  try {
    const previewStarted = performance.now();
    await previewEdition(t.deps.db, effectiveDate, Date.now());
    const previewMs = performance.now() - previewStarted;
    const residentBeforeMiB = (await memoryKiB("VmRSS")) / KIB_PER_MIB;
    const started = performance.now();
    const edition = await publishQueuedEdition(t.deps);
    const elapsedMs = performance.now() - started;
    const peakMiB = (await memoryKiB("VmHWM")) / KIB_PER_MIB;
    if (!edition) throw new Error("the edition was not published");
    const manifest = JSON.parse(edition.manifest) as { files: { name: string; size: number }[] };
    const sizes = manifest.files.map((file) => `${file.name} ${(file.size / 1024 ** 2).toFixed(0)} MiB`).join(
      ", ",
    );
    return { previewMs, elapsedMs, residentBeforeMiB, peakMiB, sizes };
  } finally {
    await t.close();
  }
}

async function publishInChild(dataDir: string, effectiveDate: string): Promise<PublishFigures> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      SERVER_V8_FLAGS,
      new URL(import.meta.url).pathname,
      "--publish",
      dataDir,
      effectiveDate,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error("the publishing process failed");
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

export async function directoryPublishBench(log: (line: string) => void): Promise<BenchRow[]> {
  const dataDir = await Deno.makeTempDir({ prefix: "cbr-directory-bench-" });
  try {
    const effectiveDate = new Date(Date.now() + 86_400_000).toISOString();
    const t = await createTestApp({}, { dataDir });
    try {
      await seed(t, log);
      await queueBenchEdition(t, effectiveDate);
    } finally {
      await t.close();
    }
    const figures = await publishInChild(dataDir, effectiveDate);
    const { elapsedMs, peakMiB, sizes } = figures;
    const memory = `peak ${peakMiB.toFixed(0)} MiB (${
      figures.residentBeforeMiB.toFixed(0)
    } MiB resident before)`;
    log(`edition 1 published in ${(elapsedMs / 1000).toFixed(2)} s: ${sizes}; ${memory}`);
    log(`the next edition's preview (a pass without files) took ${(figures.previewMs / 1000).toFixed(2)} s`);
    const records = INSTITUTIONS + ROUTING_CODES + BICS;
    const what = `${formatNumber(INSTITUTIONS)} institutions, ${formatNumber(ROUTING_CODES + BICS)} codes`;
    return [{
      what: `Publish a directory edition: ${what} (full and delta, CSV and fixed width, signed manifest)`,
      reference: "—",
      ours: `${(elapsedMs / 1000).toFixed(2)} s`,
      ratio: null,
      target: `≤ ${TARGET_PUBLISH_MS / 1000} s`,
      pass: elapsedMs <= TARGET_PUBLISH_MS,
      note: `${formatNumber(records)} records; ${sizes}; the preview's pass ${
        (figures.previewMs / 1000).toFixed(2)
      } s`,
    }, {
      what: "Peak memory of the publishing process (booted on the seeded data, preview, then publication)",
      reference: "—",
      ours: `${peakMiB.toFixed(0)} MiB`,
      ratio: null,
      target: `≤ ${TARGET_PEAK_MIB} MiB`,
      pass: peakMiB <= TARGET_PEAK_MIB,
      note: `${figures.residentBeforeMiB.toFixed(0)} MiB resident just before the publication`,
    }];
  } finally {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main && Deno.args[0] === "--publish") {
  console.log(JSON.stringify(await publishInThisProcess(Deno.args[1], Deno.args[2])));
} else if (import.meta.main) {
  const rows = await directoryPublishBench((line) => console.error(line));
  console.log(JSON.stringify(rows, null, 2));
}
