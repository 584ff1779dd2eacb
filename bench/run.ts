/**
 * `deno task bench`: runs every benchmark under bench/, prints one table and writes
 * bench/RESULTS.md with the machine's cores, memory and the date. BENCH_QUICK=1 shortens every
 * run (3 s wrk runs instead of 10 s) for a smoke check; committed results come from a full run.
 */
import {
  BENCH_QUICK,
  type BenchRow,
  renderMarkdownTable,
  renderTerminalTable,
  verdict,
} from "./lib/report.ts";

const BENCH_DIR = new URL(".", import.meta.url);
const RESULTS_PATH = new URL("./RESULTS.md", import.meta.url).pathname;
/** Not benchmarks: this runner and the reference servers. Files starting with "_" are scratch. */
const NOT_BENCHMARKS = new Set(["run.ts", "hello_server.ts", "floor_server.ts", "mandatory_floor_server.ts"]);
/** Cheap figures first, the long HTTP runs last; modules not listed run in between, by name. */
const ORDER = ["iban_domain.ts", "spa.ts", "startup.ts", "http.ts"];

type BenchFn = (log: (line: string) => void) => Promise<BenchRow[]> | BenchRow[];

interface Section {
  name: string;
  run: BenchFn;
}

/**
 * Every module under bench/ is a benchmark: each export whose name ends in "Bench" is called with
 * a logger and returns table rows, so a new bench file joins the table without editing this one.
 */
async function discoverSections(): Promise<Section[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(BENCH_DIR)) {
    if (
      entry.isFile && entry.name.endsWith(".ts") && !entry.name.startsWith("_") &&
      !NOT_BENCHMARKS.has(entry.name)
    ) {
      files.push(entry.name);
    }
  }
  const rank = (f: string) => (ORDER.includes(f) ? ORDER.indexOf(f) : ORDER.length - 1.5);
  files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const sections: Section[] = [];
  for (const file of files) {
    let module: Record<string, unknown>;
    try {
      module = await import(new URL(file, BENCH_DIR).href);
    } catch (error) {
      sections.push({ name: file, run: () => Promise.reject(error) });
      continue;
    }
    for (const [name, value] of Object.entries(module)) {
      if (typeof value === "function" && name.endsWith("Bench")) {
        sections.push({ name: `${file}:${name}`, run: value as BenchFn });
      }
    }
  }
  return sections;
}

const SECTIONS = await discoverSections();

const log = (line: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function machine() {
  const memory = Deno.systemMemoryInfo();
  let cpuModel = "unknown";
  try {
    cpuModel = (await Deno.readTextFile("/proc/cpuinfo")).match(/^model name\s*:\s*(.+)$/m)?.[1] ?? cpuModel;
  } catch {
    // Not Linux: the model is only informative.
  }
  return {
    cores: navigator.hardwareConcurrency,
    cpuModel,
    memoryGiB: memory.total / 1024 ** 3,
    deno: Deno.version.deno,
    os: `${Deno.build.os} ${Deno.osRelease()}`,
  };
}

const started = performance.now();
const rows: BenchRow[] = [];
for (const section of SECTIONS) {
  const t0 = performance.now();
  try {
    rows.push(...await section.run(log));
  } catch (error) {
    rows.push({
      what: `${section.name} benchmark`,
      reference: "—",
      ours: "FAILED",
      ratio: null,
      target: "runs",
      pass: false,
      note: String(error instanceof Error ? error.message : error).split("\n")[0].slice(0, 300),
    });
  }
  log(`${section.name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const durationSec = (performance.now() - started) / 1000;
const info = await machine();
const date = new Date().toISOString();
const misses = rows.filter((r) => r.pass === false);

console.log(renderTerminalTable(rows));
console.log(
  `\n${info.cores} cores (${info.cpuModel}), ${info.memoryGiB.toFixed(1)} GiB, deno ${info.deno}, ${date}` +
    `${BENCH_QUICK ? ", BENCH_QUICK=1" : ""}; ${durationSec.toFixed(0)} s; ${misses.length} miss(es)`,
);

await Deno.writeTextFile(
  RESULTS_PATH,
  `# Benchmark results

Written by \`deno task bench\` (bench/run.ts); see docs/bench.md for what each row measures.

- Date: ${date}
- Machine: ${info.cores} cores (navigator.hardwareConcurrency), ${info.cpuModel}, ${
    info.memoryGiB.toFixed(1)
  } GiB memory (Deno.systemMemoryInfo)
- OS: ${info.os}; Deno ${info.deno}
- Mode: ${BENCH_QUICK ? "BENCH_QUICK=1 (short runs: smoke figures only)" : "full"}; the whole run took ${
    durationSec.toFixed(0)
  } s
- Misses: ${misses.length === 0 ? "none" : misses.map((r) => r.what).join("; ")}

${renderMarkdownTable(rows)}

Ratios are ours divided by the reference measured in the same run (for memory and start-up: how
many times the hello-world's figure; for the SPA: the share of the budget used). Result column:
${["pass", "MISS", "info", "n/a"].map((v) => `\`${v}\``).join(", ")} (info: no target; n/a: not measured).
`,
);
log(`wrote ${RESULTS_PATH}`);
Deno.exit(rows.some((r) => verdict(r) === "MISS" && r.ours === "FAILED") ? 1 : 0);
