/**
 * package-lock.json must list every platform's optional packages (Deno's and Tailwind's native
 * builds among them), not only this machine's: otherwise `npm ci` refuses the file on another
 * platform and `npm install` rewrites it, leaving a clean clone dirty. npm leaves them out when the
 * lock is regenerated over an existing node_modules (npm/cli#4828), so this is checked here.
 */
import assert from "node:assert/strict";

interface LockEntry {
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(Deno.readTextFileSync("package-lock.json")) as {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};

/** Where npm would find `name` for the package at `path`: its own node_modules, then each ancestor's. */
function resolves(path: string, name: string): boolean {
  let at = path;
  for (;;) {
    const candidate = at === "" ? `node_modules/${name}` : `${at}/node_modules/${name}`;
    if (candidate in lock.packages) return true;
    if (at === "") return false;
    const parent = at.lastIndexOf("node_modules/");
    at = parent <= 0 ? "" : at.slice(0, parent - 1);
  }
}

Deno.test("package-lock.json lists every optional dependency of every locked package, for all platforms", () => {
  assert.ok(lock.lockfileVersion >= 2, "a lock file with the packages map");
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      if (!resolves(path, name)) missing.push(`${path || "(root)"} → ${name}`);
    }
  }
  assert.deepEqual(
    missing,
    [],
    "regenerate the lock without node_modules (see README, Adding a dependency) so that npm ci accepts it everywhere",
  );
});
