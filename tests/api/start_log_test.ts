/**
 * The start log of a first start, from a real server process: the first administrator's generated
 * password in a block of its own (and nowhere else in the log), how to sign in the first time, and
 * the demo staff's one-time passwords grouped in their own block after it.
 */
import assert from "node:assert/strict";
import { startServer } from "../e2e/helpers.ts";

const RULE = "=".repeat(78);

/** The blocks of the log: the lines between each pair of rules. */
function blocks(output: string): string[][] {
  const lines = output.split("\n");
  const found: string[][] = [];
  for (let start = lines.indexOf(RULE); start >= 0;) {
    const end = lines.indexOf(RULE, start + 1);
    assert.ok(end > start, `an unclosed block in the start log:\n${output}`);
    found.push(lines.slice(start + 1, end));
    start = lines.indexOf(RULE, end + 1);
  }
  return found;
}

Deno.test({
  name:
    "a first start prints the generated password once, in its own block, then the one-time passwords in theirs",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD: "", SEED_DEMO: "1", REQUIRE_MFA: "1" });
    try {
      const output = server.output();
      const [admin, staff, ...rest] = blocks(output);
      assert.deepEqual(rest, [], output);
      assert.equal(admin[0], "FIRST SIGN-IN: the first administrator");
      assert.ok(admin.includes("E-mail:   operator@centralbank.test"), admin.join("\n"));
      const password = admin.find((line) => line.startsWith("Password: "))?.slice("Password: ".length) ?? "";
      assert.match(password, /^\S{16,}$/);
      // Printed once: nowhere else in the whole start log.
      assert.equal(output.split(password).length - 1, 1, output);
      assert.ok(admin.includes(`Sign in:  ${server.baseUrl}/api/login`), admin.join("\n"));
      assert.ok(admin.some((line) => line.includes("authenticator app") && line.includes("RFC 6238")));
      assert.ok(admin.some((line) => line.includes("REQUIRE_MFA=0")));

      assert.equal(staff[0], "ONE-TIME PASSWORDS: demo staff, printed this once");
      const people = staff.flatMap((line) => {
        const match = line.match(/^Demo (\w+) (\S+), one-time password: (\S+)$/);
        return match ? [{ role: match[1], email: match[2], password: match[3] }] : [];
      });
      assert.deepEqual(people.map(({ role, email }) => `${role} ${email}`), [
        "administrator admin2@centralbank.local",
        "operator operator@centralbank.local",
        "approver approver@centralbank.local",
      ]);
      for (const person of people) assert.equal(output.split(person.password).length - 1, 1);
      // Each block comes after every other line of the start, save the line that says it listens.
      const after = output.slice(output.lastIndexOf(RULE) + RULE.length).trim().split("\n");
      assert.deepEqual(after.filter((line) => line.trim() !== ""), [
        `Console listening on ${server.baseUrl}`,
      ]);

      // The generated password signs in.
      const res = await fetch(`${server.baseUrl}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "operator@centralbank.test", password }),
      });
      assert.equal(res.status, 200);
      assert.equal((await res.json()).secondFactor, "enrol");
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name:
    "with ADMIN_PASSWORD the block names where the password comes from, and REQUIRE_MFA=0 says the password alone signs in",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ REQUIRE_MFA: "0" });
    try {
      const output = server.output();
      const [admin, ...rest] = blocks(output);
      assert.deepEqual(rest, [], "no demo staff, no block of one-time passwords");
      assert.ok(admin.includes("Password: the one set in ADMIN_PASSWORD"), admin.join("\n"));
      assert.ok(
        !output.includes(server.env.ADMIN_PASSWORD),
        "the configured password itself is never printed",
      );
      assert.ok(
        admin.some((line) => line.startsWith("Second factor: off (REQUIRE_MFA=0)")),
        admin.join("\n"),
      );
    } finally {
      await server.stop();
    }
  },
});
