/**
 * The one domain test that compares with a file outside the repository (the shared IBAN registry
 * release) says why it is skipped when the file is missing, and under CI=true fails instead: CI has
 * the shared folder beside the clone, so a missing file there means the comparison silently stopped.
 * Each case runs that test file in a throw-away folder laid out like a clone without it.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;
const TEST_FILE = "tests/domain/iban_registry_test.ts";

async function runWithoutShared(ci: boolean): Promise<{ success: boolean; output: string }> {
  const parent = await Deno.makeTempDir({ prefix: "cbr-no-shared-" });
  try {
    const clone = `${parent}/clone`;
    await Deno.mkdir(clone);
    for (const entry of ["db", "src", "tests", "deno.json", "package.json", "node_modules"]) {
      await Deno.symlink(`${ROOT}${entry}`, `${clone}/${entry}`);
    }
    const env: Record<string, string> = { PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1" };
    for (const name of ["HOME", "DENO_DIR", "XDG_CACHE_HOME"]) {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }
    if (ci) env.CI = "true";
    const result = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--no-check", "--allow-read", "--allow-env", TEST_FILE],
      cwd: clone,
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    return { success: result.success, output: decoder.decode(result.stdout) + decoder.decode(result.stderr) };
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
}

Deno.test("without the shared registry file the comparison is skipped with its reason, outside CI", async () => {
  const { success, output } = await runWithoutShared(false);
  assert.ok(success, output);
  assert.match(output, /skipped "the committed registry file is the shared release 102 file, byte for byte"/);
  assert.match(output, /\.\.\/shared\/iban-registry\/swift_iban_registry_202606\.r102\.txt is missing/);
  assert.match(output, /1 ignored/);
});

Deno.test("under CI=true a missing shared registry file fails the comparison", async () => {
  const { success, output } = await runWithoutShared(true);
  assert.equal(success, false, output);
  assert.match(
    output,
    /is missing \(a clone without the project's shared folder beside it\); CI must provide it/,
  );
});
