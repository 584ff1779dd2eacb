/**
 * Sequential manual sweeps through the service layer (executeManualSweep: read of both accounts,
 * plan, one guarded UPDATE that moves both balances and stamps lastSweepDate, both journal
 * entries, sweep row, hash-chained audit row, one transaction each) against a
 * raw libSQL loop doing the minimal writes of a sweep (two balance updates, the sweep row and an
 * audit row in one transaction), alternating rounds in the same run on the same kind of database
 * file (WAL, synchronous=FULL). Target: the service reaches at least half the raw rate.
 *
 * Part of `deno task bench`; alone: `node_modules/.bin/deno run -A bench/sweeps.ts`.
 */
import { createClient, type InValue } from "@libsql/client";
import { SYSTEM_USER_ID } from "../db/schema.ts";
import { prepareAuditChain } from "../src/server/audit/rekey.ts";
import { loadConfig } from "../src/server/config.ts";
import { openDatabase, statementsOf } from "../src/server/db/database.ts";
import { createAccount } from "../src/server/features/ledger/service.ts";
import { executeManualSweep } from "../src/server/features/sweeps/manual.ts";
import { migrate } from "../src/server/db/migrate.ts";
import { BENCH_QUICK, type BenchRow, formatNumber } from "./lib/report.ts";
import { median } from "./lib/wrk.ts";

export const MIN_SWEEP_SERVICE_RATIO = 0.5;
const ROUNDS = 5;
const SWEEPS_PER_ROUND = BENCH_QUICK ? 100 : 300;
const WARMUP_SWEEPS = 30;
const SWEEP_AMOUNT_MINOR = 1n;
/** 1,000,000,000.00: far more than the run can sweep at 0.01 each. */
const OPENING_BALANCE_MINOR = 100_000_000_000;
/** The pragmas src/server/db/database.ts sets on every connection, so both loops pay the same fsyncs. */
const PRAGMAS = [
  "PRAGMA journal_mode = WAL",
  "PRAGMA foreign_keys = ON",
  "PRAGMA busy_timeout = 5000",
  "PRAGMA synchronous = FULL",
];

const ACTOR = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "bench" };
const EXECUTOR = { userId: SYSTEM_USER_ID, firstName: "System", lastName: null, email: "system@console.invalid" };

async function migratedFile(dir: string, name: string): Promise<string> {
  const url = `file:${dir}/${name}.db`;
  const db = await openDatabase(url);
  await migrate(db);
  // The service loop writes audit rows, which need the chain keyed and its key registered.
  await prepareAuditChain(db, loadConfig({ DATA_DIR: dir }), () => {});
  db.close();
  return url;
}

async function serviceLoop(url: string) {
  const db = await openDatabase(url);
  const ledger = await createAccount(db, ACTOR, {
    accountNumber: "BENCH-LEDGER",
    accountType: "ledger",
    accountName: "Bench ledger",
    currency: "USD",
    accountStatus: "active",
    currentBalance: BigInt(OPENING_BALANCE_MINOR),
    sweepThreshold: null,
    targetLiquidAccount: null,
    institutionId: null,
    nationalRoutingId: null,
  });
  const liquid = await createAccount(db, ACTOR, {
    accountNumber: "BENCH-LIQUID",
    accountType: "liquid",
    accountName: "Bench liquid",
    currency: "USD",
    accountStatus: "active",
    currentBalance: 0n,
    sweepThreshold: null,
    targetLiquidAccount: null,
    institutionId: null,
    nationalRoutingId: null,
  });
  const input = {
    sourceAccountId: ledger.id,
    targetAccountId: liquid.id,
    sweepAmount: SWEEP_AMOUNT_MINOR,
    sweepType: "manual" as const,
    sweepReason: "bench",
  };
  return {
    async run(count: number): Promise<number> {
      const start = performance.now();
      for (let i = 0; i < count; i++) {
        await executeManualSweep(db, ACTOR, EXECUTOR, input, Date.now());
      }
      return count / ((performance.now() - start) / 1000);
    },
    close: () => db.close(),
  };
}

/** Runs SQL with positional arguments through `execute`. */
type RawBody = (execute: (sql: string, args: InValue[]) => Promise<void>) => Promise<void>;
/** Runs a body inside one write transaction per call. */
type RawTransaction = (body: RawBody) => Promise<void>;

/** Through @libsql/client, the driver of the design card: each statement prepared anew. */
async function clientWriter(url: string) {
  const client = createClient({ url, concurrency: 1, intMode: "number" });
  for (const pragma of PRAGMAS) await client.execute(pragma);
  const transaction: RawTransaction = async (body) => {
    const tx = await client.transaction("write");
    try {
      await body(async (sql, args) => void await tx.execute({ sql, args }));
      await tx.commit();
    } finally {
      tx.close();
    }
  };
  return { transaction, close: () => client.close() };
}

/** The same writes through the database's own transaction, as the service makes them. */
async function preparedWriter(url: string) {
  const db = await openDatabase(url);
  const transaction: RawTransaction = (body) =>
    db.transaction((tx) => {
      const statements = statementsOf(tx);
      return body(async (sql, args) => void await statements.run(sql, args));
    });
  return { transaction, close: () => db.close() };
}

async function rawLoop(writer: { transaction: RawTransaction; close(): void }) {
  const now = new Date().toISOString();
  const ledgerId = crypto.randomUUID();
  const liquidId = crypto.randomUUID();
  await writer.transaction(async (execute) => {
    for (
      const [id, type, balance] of [[ledgerId, "ledger", OPENING_BALANCE_MINOR], [
        liquidId,
        "liquid",
        0,
      ]] as const
    ) {
      await execute(
        `INSERT INTO ledger_accounts (id, account_number, account_type, account_name, current_balance_minor,
              available_balance_minor, opening_balance_minor, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, `RAW-${type}`, type, `Raw ${type}`, balance, balance, balance, now, now],
      );
    }
  });
  let sequence = 0;
  return {
    async run(count: number): Promise<number> {
      const start = performance.now();
      for (let i = 0; i < count; i++) {
        sequence += 1;
        const at = new Date().toISOString();
        const amount = Number(SWEEP_AMOUNT_MINOR);
        const before = OPENING_BALANCE_MINOR - (sequence - 1) * amount;
        await writer.transaction(async (execute) => {
          await execute(
            "UPDATE ledger_accounts SET current_balance_minor = current_balance_minor - ?, available_balance_minor = available_balance_minor - ?, updated_at = ? WHERE id = ?",
            [amount, amount, at, ledgerId],
          );
          await execute(
            "UPDATE ledger_accounts SET current_balance_minor = current_balance_minor + ?, available_balance_minor = available_balance_minor + ?, updated_at = ? WHERE id = ?",
            [amount, amount, at, liquidId],
          );
          const sweepId = crypto.randomUUID();
          await execute(
            `INSERT INTO balance_sweeps (id, sweep_type, source_account_id, target_account_id, sweep_amount_minor,
                  source_balance_before_minor, source_balance_after_minor, target_balance_before_minor,
                  target_balance_after_minor, sweep_status, transaction_reference, executed_at, executed_by)
                VALUES (?, 'manual', ?, ?, ?, ?, ?, ?, ?, 'completed', ?, ?, ?)`,
            [
              sweepId,
              ledgerId,
              liquidId,
              amount,
              before,
              before - amount,
              (sequence - 1) * amount,
              sequence * amount,
              `RAW-${sweepId}`,
              at,
              SYSTEM_USER_ID,
            ],
          );
          await execute(
            `INSERT INTO audit_trail (id, seq, entity_type, entity_id, action, changes, performed_by, performed_at, prev_hash, hash)
                VALUES (?, ?, 'balance_sweep', ?, 'execute', '{}', ?, ?, ?, ?)`,
            [crypto.randomUUID(), sequence, sweepId, SYSTEM_USER_ID, at, "0".repeat(64), "0".repeat(64)],
          );
        });
      }
      return count / ((performance.now() - start) / 1000);
    },
    close: () => writer.close(),
  };
}

export async function sweepsBench(log: (line: string) => void): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "cbr-bench-sweeps-" });
  try {
    const service = await serviceLoop(await migratedFile(dir, "service"));
    const raw = await rawLoop(await clientWriter(await migratedFile(dir, "raw")));
    const rawPrepared = await rawLoop(await preparedWriter(await migratedFile(dir, "raw_prepared")));
    await service.run(WARMUP_SWEEPS);
    await raw.run(WARMUP_SWEEPS);
    await rawPrepared.run(WARMUP_SWEEPS);
    const serviceRates: number[] = [];
    const rawRates: number[] = [];
    const rawPreparedRates: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      rawRates.push(await raw.run(SWEEPS_PER_ROUND));
      serviceRates.push(await service.run(SWEEPS_PER_ROUND));
      rawPreparedRates.push(await rawPrepared.run(SWEEPS_PER_ROUND));
      log(
        `sweeps: round ${round}/${ROUNDS}: raw ${formatNumber(rawRates.at(-1)!)} /s, service ${
          formatNumber(serviceRates.at(-1)!)
        } /s, raw prepared ${formatNumber(rawPreparedRates.at(-1)!)} /s`,
      );
    }
    service.close();
    raw.close();
    rawPrepared.close();
    const serviceRate = median(serviceRates);
    const rawRate = median(rawRates);
    const rawPreparedRate = median(rawPreparedRates);
    const ratio = serviceRate / rawRate;
    return [{
      what:
        `Sequential manual sweeps: service layer vs raw libSQL loop (${ROUNDS}×${SWEEPS_PER_ROUND}, median)`,
      reference: `${formatNumber(rawRate)} sweeps/s`,
      ours: `${formatNumber(serviceRate)} sweeps/s`,
      ratio,
      target: `≥ ${MIN_SWEEP_SERVICE_RATIO}×`,
      pass: ratio >= MIN_SWEEP_SERVICE_RATIO,
      note:
        "raw: 2 updates + 2 inserts per transaction through @libsql/client; service: one db.transaction on the native connection, statements prepared once: read of both accounts for the plan, 1 guarded update of both accounts (with lastSweepDate), 2 journal entries in 1 insert, sweep row, hash-chained audit row (previous hash read + insert)",
    }, {
      what:
        `Sequential manual sweeps: service layer vs the raw loop with prepared statements (${ROUNDS}×${SWEEPS_PER_ROUND}, median)`,
      reference: `${formatNumber(rawPreparedRate)} sweeps/s`,
      ours: `${formatNumber(serviceRate)} sweeps/s`,
      ratio: serviceRate / rawPreparedRate,
      target: "—",
      pass: null,
      note:
        "the same raw writes through the native libSQL binding, each statement prepared once: the floor the service's own statements stand on, shown for comparison",
    }];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const [row, prepared] = await sweepsBench((line) => console.error(line));
  console.log(`raw libSQL loop: ${row.reference}`);
  console.log(`raw loop, prepared: ${prepared.reference}`);
  console.log(`service layer:   ${row.ours}`);
  console.log(`ratio: ${row.ratio?.toFixed(2)} (target ${row.target}: ${row.pass ? "met" : "NOT met"})`);
  console.log(`ratio to the prepared raw loop: ${prepared.ratio?.toFixed(2)}`);
}
