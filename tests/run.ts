/**
 * The README's test command: runs tests/domain, tests/api, tests/e2e and tests/replication with `deno test`, then
 * prints the totals as the last line, `tests: N passed, M failed` (CI reads it).
 * `deno task test:faults` runs tests/faults the same way.
 */
const ROOT = new URL("..", import.meta.url).pathname;
const ARTIFACTS = `${ROOT}.test-artifacts`;

interface Suite {
  name: string;
  dir: string;
  parallel: boolean;
}

const SUITES: Record<string, Suite[]> = {
  default: [
    { name: "domain", dir: "tests/domain", parallel: true },
    { name: "api", dir: "tests/api", parallel: true },
    { name: "e2e", dir: "tests/e2e", parallel: false },
    { name: "replication", dir: "tests/replication", parallel: false },
  ],
  faults: [{ name: "faults", dir: "tests/faults", parallel: false }],
};

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function countJunit(xml: string): Counts {
  const cases = xml.split("<testcase").slice(1);
  let failed = 0;
  let skipped = 0;
  for (const testCase of cases) {
    const body = testCase.slice(0, testCase.indexOf("</testcase>") >= 0 ? testCase.indexOf("</testcase>") : undefined);
    if (/<failure|<error/.test(body)) failed++;
    else if (/<skipped/.test(body)) skipped++;
  }
  return { passed: cases.length - failed - skipped, failed, skipped };
}

async function runSuite(suite: Suite): Promise<Counts> {
  const junitPath = `${ARTIFACTS}/${suite.name}.xml`;
  await Deno.remove(junitPath).catch(() => {});
  const args = ["test", "-A", `--junit-path=${junitPath}`];
  if (suite.parallel) args.push("--parallel");
  args.push(suite.dir);
  console.log(`\n=== ${suite.name}: deno ${args.join(" ")}`);
  const status = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  let counts: Counts;
  try {
    counts = countJunit(await Deno.readTextFile(junitPath));
  } catch {
    counts = { passed: 0, failed: 0, skipped: 0 };
  }
  // A suite that failed without reporting a failing test (a compile error, a crash) still fails.
  if (!status.success && counts.failed === 0) counts.failed = 1;
  console.log(`=== ${suite.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  return counts;
}

async function buildSpa() {
  const status = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}build.ts`, "--if-stale"],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!status.success) throw new Error("building the SPA failed");
}

const selection = Deno.args[0] ?? "default";
const suites = SUITES[selection];
if (!suites) {
  console.error(`unknown suite set "${selection}"; known: ${Object.keys(SUITES).join(", ")}`);
  Deno.exit(2);
}
await Deno.mkdir(ARTIFACTS, { recursive: true });
if (suites.some((suite) => suite.name === "e2e")) await buildSpa();
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const suite of suites) {
  const counts = await runSuite(suite);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
if (total.skipped > 0) console.log(`(${total.skipped} skipped)`);
console.log(`tests: ${total.passed} passed, ${total.failed} failed`);
Deno.exit(total.failed > 0 ? 1 : 0);
