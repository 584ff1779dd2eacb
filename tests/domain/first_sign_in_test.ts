import assert from "node:assert/strict";
import { signInSteps, stepHeading } from "../../src/domain/first_sign_in.ts";

const ids = (facts: Parameters<typeof signInSteps>[0]) => signInSteps(facts).map((step) => step.id);

Deno.test("the steps of a sign-in follow what the user still has to do", () => {
  assert.deepEqual(ids({ secondFactor: "enrol", mustChangePassword: true }), [
    "password",
    "enrol",
    "recovery_codes",
    "new_password",
  ]);
  assert.deepEqual(ids({ secondFactor: "enrol", mustChangePassword: false }), [
    "password",
    "enrol",
    "recovery_codes",
  ]);
  assert.deepEqual(ids({ secondFactor: "verify", mustChangePassword: true }), [
    "password",
    "verify",
    "new_password",
  ]);
  assert.deepEqual(ids({ secondFactor: null, mustChangePassword: true }), ["password", "new_password"]);
  // An ordinary sign-in, a password and perhaps a code, counts nothing.
  assert.deepEqual(ids({ secondFactor: "verify", mustChangePassword: false }), []);
  assert.deepEqual(ids({ secondFactor: null, mustChangePassword: false }), []);
});

Deno.test("the heading names the step's place and label, or nothing for a step not in the list", () => {
  const steps = signInSteps({ secondFactor: "enrol", mustChangePassword: true });
  assert.equal(stepHeading(steps, "enrol"), "Step 2 of 4: Set up your authenticator app");
  assert.equal(stepHeading(steps, "new_password"), "Step 4 of 4: Choose a new password");
  assert.equal(stepHeading(steps, "verify"), null);
  assert.equal(stepHeading([], "password"), null);
});
