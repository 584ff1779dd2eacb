/**
 * Publishing a directory edition of 100,000 institutions with 300,000 codes (200,000 routing codes and
 * 100,000 BICs): the registry read as of the effective date from registry_versions, the full and delta
 * files in CSV and fixed width, the manifest and its signatures, all stored in one transaction, as an
 * approval does it. Seeds a temporary database with straight SQL (a fixture, not business writes),
 * gives every row its first version in one statement per table, then times publishEdition().
 * Target: ≤ 10 s. Also reports how far the publication raised the process's peak memory.
 *
 * Run alone: `node_modules/.bin/deno run -A bench/directory_publish.ts`
 * (DIRECTORY_BENCH_INSTITUTIONS scales the registry down for a smoke run; codes stay three per institution.)
 */
import { sql } from "drizzle-orm";
import { formatRoutingCode } from "../src/domain/routing_code.ts";
import { recordMissingInitialVersions } from "../src/server/registry_history/initial_versions.ts";
import { publishEdition } from "../src/server/features/directory/service.ts";
import { directorySigningKey } from "../src/server/features/directory/signing_key.ts";
import { SYSTEM_USER_ID } from "../db/schema.ts";
import { createTestApp, type TestApp } from "../tests/helpers/test_app.ts";
import { type BenchRow, formatNumber } from "./lib/report.ts";
import { institutionAt } from "./institutions_search.ts";

const INSTITUTIONS = Number(Deno.env.get("DIRECTORY_BENCH_INSTITUTIONS") ?? 100_000);
const ROUTING_CODES = INSTITUTIONS * 2;
const BICS = INSTITUTIONS;
const INSERT_BATCH = 500;
export const TARGET_PUBLISH_MS = 10_000;
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

async function peakRssKiB(): Promise<number> {
  const status = await Deno.readTextFile("/proc/self/status");
  return Number(status.match(/^VmHWM:\s+(\d+) kB/m)?.[1] ?? 0);
}

export async function directoryPublishBench(log: (line: string) => void): Promise<BenchRow[]> {
  const t = await createTestApp();
  try {
    await seed(t, log);
    const key = await directorySigningKey(t.deps.config.dataDir);
    const effectiveDate = new Date(Date.now() + 86_400_000).toISOString();
    const peakBefore = await peakRssKiB();
    const started = performance.now();
    const edition = await t.deps.db.transaction((tx) =>
      publishEdition(tx, { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "bench" }, key, {
        effectiveDate,
        reason: "Bench edition",
        requestedBy: SYSTEM_USER_ID,
        approvedBy: SYSTEM_USER_ID,
      }, Date.now())
    );
    const elapsedMs = performance.now() - started;
    const raisedMiB = ((await peakRssKiB()) - peakBefore) / KIB_PER_MIB;
    const manifest = JSON.parse(edition.manifest) as { files: { name: string; size: number }[] };
    const sizes = manifest.files.map((file) => `${file.name} ${(file.size / 1024 ** 2).toFixed(0)} MiB`).join(
      ", ",
    );
    log(`edition ${edition.number} published in ${(elapsedMs / 1000).toFixed(2)} s: ${sizes}`);
    const records = INSTITUTIONS + ROUTING_CODES + BICS;
    return [{
      what: `Publish a directory edition: ${formatNumber(INSTITUTIONS)} institutions, ${
        formatNumber(ROUTING_CODES + BICS)
      } codes (full and delta, CSV and fixed width, signed manifest)`,
      reference: "—",
      ours: `${(elapsedMs / 1000).toFixed(2)} s`,
      ratio: null,
      target: `≤ ${TARGET_PUBLISH_MS / 1000} s`,
      pass: elapsedMs <= TARGET_PUBLISH_MS,
      note: `${formatNumber(records)} records; ${sizes}; peak memory of the process raised by ${
        raisedMiB.toFixed(0)
      } MiB while publishing`,
    }];
  } finally {
    await t.close();
  }
}

if (import.meta.main) {
  const rows = await directoryPublishBench((line) => console.error(line));
  console.log(JSON.stringify(rows, null, 2));
}
