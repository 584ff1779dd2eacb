import assert from "node:assert/strict";
import { passwordRuleProblems, passwordUserInputs } from "../../src/domain/password_policy.ts";

const OWNER = { email: "ada.lovelace@cb.example", firstName: "Ada", lastName: "Lovelace" };

Deno.test("password rules: length counts characters after NFKC; controls and white space alone are refused", () => {
  assert.deepEqual(passwordRuleProblems("Short-pass1", OWNER), ["Password must be at least 12 characters"]);
  // Twelve characters written as twelve code points count twelve, whatever their UTF-16 length.
  assert.deepEqual(passwordRuleProblems("\u{1F40E}".repeat(12), OWNER), []);
  // NFKC folds the ligature "ﬀ" into "ff": eleven characters become twelve.
  assert.deepEqual(passwordRuleProblems("\ufb00ernwater-oak", OWNER), []);
  assert.deepEqual(passwordRuleProblems(" ".repeat(12), OWNER), ["The password is only white space"]);
  assert.deepEqual(passwordRuleProblems("\u3000".repeat(12), OWNER), ["The password is only white space"]);
  assert.deepEqual(passwordRuleProblems("\u0000".repeat(12), OWNER), [
    "The password contains a control character (such as NUL, a tab or a line break)",
  ]);
  assert.deepEqual(passwordRuleProblems("river\totter-lamp", OWNER), [
    "The password contains a control character (such as NUL, a tab or a line break)",
  ]);
  assert.deepEqual(passwordRuleProblems("x".repeat(257), OWNER), ["Password must be at most 256 characters"]);
});

Deno.test("password rules: the person's e-mail address, its part before the @ and names are refused, also disguised", () => {
  const desk = { email: "ops.desk@cb.example", firstName: "Ada", lastName: "Lovelace" };
  assert.deepEqual(passwordRuleProblems("ops.desk@cb.example", desk), ["The password contains your e-mail address"]);
  assert.deepEqual(passwordRuleProblems("Ops.Desk@CB.example!", desk), ["The password contains your e-mail address"]);
  assert.deepEqual(passwordRuleProblems("my-0ps.d3sk-2026", desk), [
    "The password contains the part of your e-mail address before the @",
  ]);
  assert.deepEqual(passwordRuleProblems("ada.lovelace@cb.example", OWNER), [
    "The password contains your e-mail address",
    "The password contains your name",
  ]);
  assert.deepEqual(passwordRuleProblems("ferry-L0v3l4ce-otter", OWNER), ["The password contains your name"]);
  // Names shorter than four letters are too common inside good passwords to refuse on sight.
  assert.deepEqual(passwordRuleProblems("adamant-river-otter", OWNER), []);
});

Deno.test("password rules: a password carried by the console's own words is refused", () => {
  const consoleWords = "The password is built from the console's own words (central bank, registry, console)";
  for (const password of ["CentralBank2026", "centralbank!!!!", "C3ntr4l-B4nk-2026", "registry-console", "BankBankBank12"]) {
    assert.deepEqual(passwordRuleProblems(password, OWNER), [consoleWords], password);
  }
  // A word of the console inside a passphrase of its own is the strength estimator's to judge.
  assert.deepEqual(passwordRuleProblems("river-bank-otter-lamp", OWNER), []);
});

Deno.test("password rules: the strength estimator gets the person's words and the console's", () => {
  const inputs = passwordUserInputs(OWNER);
  for (const word of ["ada.lovelace@cb.example", "ada.lovelace", "Ada", "Lovelace", "centralbank", "registry"]) {
    assert(inputs.includes(word), word);
  }
});
