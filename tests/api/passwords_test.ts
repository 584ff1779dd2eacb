/**
 * Passwords as NIST SP 800-63B asks, through the routes and functions that set them: the own
 * password change (POST /api/auth/password) and createUser (user:add, ADMIN_PASSWORD). Each
 * refusal says why.
 */
import { soleGrant } from "../../src/server/auth/role_grants.ts";
import assert from "node:assert/strict";
import { MIN_PASSWORD_SCORE, passwordProblems } from "../../src/server/auth/passwords.ts";
import { createUser } from "../../src/server/auth/users.ts";
import { AppError } from "../../src/server/http/errors.ts";
import { createStaff, STAFF_PASSWORD } from "../helpers/staff.ts";
import { ADMIN_PASSWORD, createTestApp, expectJson } from "../helpers/test_app.ts";

const TOO_EASY = /^Too easy to guess: [a-z].+[^.]$/;
const CONSOLE_WORDS = "The password is built from the console's own words (central bank, registry, console)";
const OWNER_EMAIL = "ada.desk@centralbank.test";

/** The weak passwords found accepted before, each with the reason it is refused now. */
const WEAK: [string, string | RegExp][] = [
  ["aaaaaaaaaaaa", TOO_EASY],
  [" ".repeat(12), "The password is only white space"],
  ["\u0000".repeat(12), "The password contains a control character (such as NUL, a tab or a line break)"],
  [OWNER_EMAIL, "The password contains your e-mail address"],
  ["Password123!", TOO_EASY],
  ["p@ssw0rd1234", TOO_EASY],
  ["Passw0rd2026", TOO_EASY],
  ["CentralBank2026", CONSOLE_WORDS],
];

const matches = (actual: string, expected: string | RegExp) =>
  typeof expected === "string" ? assert.equal(actual, expected) : assert.match(actual, expected);

Deno.test("POST /api/auth/password refuses the weak passwords with a reason each, and takes a strong one", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const user = await createStaff(t, admin, OWNER_EMAIL, ["operator"]);
    const change = (newPassword: string) =>
      t.request("POST", "/api/auth/password", {
        cookie: user.cookie,
        body: { currentPassword: STAFF_PASSWORD, newPassword },
      });
    for (const [password, reason] of WEAK) {
      const refused = await expectJson(await change(password), 400);
      matches(refused.fields.newPassword, reason);
      assert.equal(refused.message, refused.fields.newPassword, JSON.stringify(password));
    }
    const tooEasy = await expectJson(await change("Password123!"), 400);
    assert.match(tooEasy.fields.newPassword, /commonly used password/);
    await expectJson(await change("tangerine-viaduct-murmur"), 204);
  } finally {
    await t.close();
  }
});

Deno.test("passwordProblems gives every reason, one sentence each", async () => {
  const owner = { email: "zoe.marsh@centralbank.test", firstName: "Zoe", lastName: "Marsh" };
  assert.deepEqual(await passwordProblems("tangerine-viaduct-murmur", owner), []);
  assert.deepEqual(await passwordProblems("Marsh-Zoe-Marsh-Zoe", owner), [
    "The password contains the part of your e-mail address before the @",
    "The password contains your name",
  ]);
  assert.deepEqual(await passwordProblems("zoe.marsh@centralbank.test", owner), [
    "The password contains your e-mail address",
    "The password contains your name",
  ]);
  assert.equal(MIN_PASSWORD_SCORE, 3);
});

Deno.test("createUser (user:add, ADMIN_PASSWORD) refuses a weak password with its reasons; the test passwords are strong", async () => {
  const t = await createTestApp();
  try {
    for (const [password, reason] of WEAK) {
      await assert.rejects(
        createUser(t.deps.db, t.deps.config, { email: OWNER_EMAIL, password }, soleGrant(null)),
        (error: unknown) => {
          assert(error instanceof AppError && error.status === 400);
          matches(error.details.fields?.password ?? "", reason);
          return true;
        },
      );
    }
    assert.deepEqual(await passwordProblems(ADMIN_PASSWORD, { email: "admin@centralbank.test" }), []);
    assert.deepEqual(await passwordProblems(STAFF_PASSWORD, { email: OWNER_EMAIL }), []);
  } finally {
    await t.close();
  }
});
