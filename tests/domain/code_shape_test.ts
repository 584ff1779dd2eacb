/**
 * The code's shape, checked on every run: no import cycles among src's modules (a cycle means no file
 * of it can be read first), and functions in src/server and src/domain of at most 70 lines, save the
 * exceptions listed with their reason in long_functions.json.
 */
import assert from "node:assert/strict";
import { functionSpans, importCycles } from "../helpers/code_shape.ts";

/** TigerBeetle's limit: a function longer than this no longer fits on one screen. */
const MAX_FUNCTION_LINES = 70;

/** The folders whose functions must keep to the limit; src/web's long pages are counted only. */
const CHECKED_DIRS = ["src/server", "src/domain"];
const COUNTED_DIRS = [...CHECKED_DIRS, "src/web"];

const EXCEPTIONS_FILE = new URL("./long_functions.json", import.meta.url);

Deno.test("src has no import cycles", () => {
  const cycles = importCycles("src");
  assert.deepEqual(cycles, [], `import cycles among src's modules:\n${cycles.join("\n")}`);
});

Deno.test("functions in src/server and src/domain are at most 70 lines", () => {
  const exceptions = JSON.parse(Deno.readTextFileSync(EXCEPTIONS_FILE)) as Record<string, string>;
  const counts: string[] = [];
  const lengths = new Map<string, number>();
  for (const dir of COUNTED_DIRS) {
    const spans = functionSpans(dir);
    counts.push(`${dir} ${spans.filter((span) => span.lines > MAX_FUNCTION_LINES).length}`);
    if (CHECKED_DIRS.includes(dir)) { for (const span of spans) lengths.set(span.key, span.lines); }
  }
  console.log(`functions over ${MAX_FUNCTION_LINES} lines: ${counts.join(", ")}`);

  const unlisted = [...lengths]
    .filter(([key, lines]) => lines > MAX_FUNCTION_LINES && !(key in exceptions))
    .map(([key, lines]) => `${key} (${lines} lines)`);
  const stale = Object.keys(exceptions).filter((key) => (lengths.get(key) ?? 0) <= MAX_FUNCTION_LINES)
    .map((key) => lengths.has(key) ? `${key} (now ${lengths.get(key)} lines)` : `${key} (no such function)`);
  const unexplained = Object.entries(exceptions).filter(([, reason]) => reason.trim() === "").map(([key]) =>
    key
  );

  assert.deepEqual(
    unlisted,
    [],
    `split these, or list them with a reason in long_functions.json:\n${unlisted.join("\n")}`,
  );
  assert.deepEqual(stale, [], `remove these from long_functions.json:\n${stale.join("\n")}`);
  assert.deepEqual(unexplained, [], "each exception in long_functions.json gives its reason");
});
