/**
 * Domain IBAN validation: our validateIban against ibantools.isValidIBAN over the same inputs
 * (every registry example IBAN, plus each with one digit changed), alternating rounds.
 */
import * as ibantools from "ibantools";
import { type IbanCountryFormat, validateIban } from "../src/domain/iban.ts";
import { type IbanRegistryEntry, toIbanCountryFormat } from "../src/domain/iban_registry.ts";
import { BENCH_QUICK, type BenchRow, formatNumber } from "./lib/report.ts";
import { median } from "./lib/wrk.ts";

const SEED_PATH = new URL("../db/seed/iban_registry_r102.json", import.meta.url);
export const MIN_IBAN_DOMAIN_RATIO = 0.5;
const ROUNDS = 5;
const ROUND_MS = BENCH_QUICK ? 300 : 1_000;

function inputs(entries: IbanRegistryEntry[]): string[] {
  const out: string[] = [];
  for (const e of entries) {
    out.push(e.exampleIban);
    const last = e.exampleIban.at(-1)!;
    const changed = /\d/.test(last) ? String((Number(last) + 1) % 10) : last === "A" ? "B" : "A";
    out.push(e.exampleIban.slice(0, -1) + changed);
  }
  return out;
}

/** Calls per second of `fn` over `items`, cycling for `durationMs`. */
function throughput(
  items: string[],
  fn: (iban: string) => boolean,
  durationMs: number,
): { opsPerSec: number; valid: number } {
  let calls = 0;
  let valid = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < durationMs) {
    for (const item of items) if (fn(item)) valid++;
    calls += items.length;
    elapsed = performance.now() - start;
  }
  return { opsPerSec: (calls / elapsed) * 1000, valid };
}

export function ibanDomainBench(log: (line: string) => void): BenchRow[] {
  const entries: IbanRegistryEntry[] = JSON.parse(Deno.readTextFileSync(SEED_PATH));
  const formats: ReadonlyMap<string, IbanCountryFormat> = new Map(
    entries.map((e) => [e.countryCode, toIbanCountryFormat(e)]),
  );
  const items = inputs(entries);
  const ours = (iban: string) => validateIban(iban, formats).valid;
  const theirs = (iban: string) => ibantools.isValidIBAN(iban);
  // Warm both up so neither is measured before the JIT has seen it.
  throughput(items, ours, ROUND_MS / 2);
  throughput(items, theirs, ROUND_MS / 2);
  const oursRates: number[] = [];
  const theirsRates: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    log(`iban domain: round ${round}/${ROUNDS}`);
    oursRates.push(throughput(items, ours, ROUND_MS).opsPerSec);
    theirsRates.push(throughput(items, theirs, ROUND_MS).opsPerSec);
  }
  const o = median(oursRates);
  const t = median(theirsRates);
  const ratio = o / t;
  return [{
    what: `validateIban() vs ibantools.isValidIBAN (${items.length} IBANs, half invalid)`,
    reference: `${formatNumber(t)} calls/s`,
    ours: `${formatNumber(o)} calls/s`,
    ratio,
    target: `≥ ${MIN_IBAN_DOMAIN_RATIO}×`,
    pass: ratio >= MIN_IBAN_DOMAIN_RATIO,
  }];
}
