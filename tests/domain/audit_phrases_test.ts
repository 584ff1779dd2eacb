import assert from "node:assert/strict";
import {
  ACTION_PHRASES,
  amountInChanges,
  type AuditFacts,
  auditSentence,
  changeRows,
  ENTITY_NOUNS,
  sentenceText,
} from "../../src/domain/audit_phrases.ts";

const SERVER = new URL("../../src/server/", import.meta.url);

/**
 * Call sites whose action is a variable, with every value it takes. A new call site with a variable
 * action fails the test until it is listed here (and its actions have phrases).
 */
const VARIABLE_ACTIONS: Record<string, string[]> = {
  "features/cards/service.ts": ["issue", "distribute"],
  "features/approvals/service.ts": ["approve", "reject"],
  "features/fintech/service.ts": [
    "plaid_verify_account",
    "plaid_check_balance",
    "visa_direct_transfer",
    "visa_push_payment",
  ],
  "features/central_bank_connections/service.ts": ["create", "establish"],
  "features/iban/service.ts": ["create", "seed"],
  // The entity type of a scheduled version taking effect: every kind of registry record.
  "registry_history/scheduler.ts": ["institution", "routing_code", "swift_code", "national_routing_entry"],
  // The entity type of a code's status change: a routing code or a BIC.
  "registry_history/code_changes.ts": ["routing_code", "swift_code"],
};

async function serverSources(dir = SERVER, base = ""): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    const path = `${base}${entry.name}`;
    if (entry.isDirectory) {
      for (const [name, text] of await serverSources(new URL(`${entry.name}/`, dir), `${path}/`)) {
        files.set(name, text);
      }
    } else if (entry.name.endsWith(".ts")) {
      files.set(path, await Deno.readTextFile(new URL(entry.name, dir)));
    }
  }
  return files;
}

/** `NAME = "value"` constants of one file, to resolve `action: SOME_ACTION`. */
function constantsIn(text: string): Map<string, string> {
  return new Map([...text.matchAll(/const ([A-Z][A-Z0-9_]*) = "([^"]+)"/g)].map((m) => [m[1], m[2]]));
}

/** Each file's constants, falling back to those of the server as a whole (imported ones). */
function constantsOf(files: Map<string, string>): (file: string) => Map<string, string> {
  const everywhere = new Map<string, string>();
  for (const text of files.values()) {
    for (const [name, value] of constantsIn(text)) everywhere.set(name, value);
  }
  return (file) => new Map([...everywhere, ...constantsIn(files.get(file) ?? "")]);
}

/** The text of each call of `name(` up to its closing parenthesis. */
function callsOf(text: string, name: string): string[] {
  const calls: string[] = [];
  for (const match of text.matchAll(new RegExp(`(?<!function )\\b${name}\\(`, "g"))) {
    let depth = 0;
    let end = match.index!;
    for (; end < text.length; end++) {
      if (text[end] === "(") depth++;
      if (text[end] === ")" && --depth === 0) break;
    }
    calls.push(text.slice(match.index!, end + 1));
  }
  return calls;
}

/** A field's values in a call: string literals, resolved constants, or the file's listed variable values. */
function valuesOf(expression: string, constants: Map<string, string>, file: string): string[] {
  // A condition's operand ("status === 'completed' ? …") is not a value the field takes.
  const values = expression.replace(/[!=]==\s*"[^"]*"/g, "");
  const literals = [...values.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const names = [...expression.matchAll(/\b([A-Z][A-Z0-9_]+)\b/g)].map((m) => m[1]);
  const resolved = names.map((name) => {
    const value = constants.get(name);
    assert(value, `${file}: the constant ${name} is not a string constant the test can read`);
    return value;
  });
  if (literals.length > 0 || resolved.length > 0) return [...literals, ...resolved];
  assert(
    VARIABLE_ACTIONS[file],
    `${file}: audit call with a variable value (${expression}): list its values above`,
  );
  return VARIABLE_ACTIONS[file];
}

async function recorded(): Promise<{ actions: Set<string>; entityTypes: Set<string> }> {
  const files = await serverSources();
  const constantsFor = constantsOf(files);
  const actions = new Set<string>();
  const entityTypes = new Set<string>();
  for (const [file, text] of files) {
    if (file === "audit/trail.ts") continue;
    const constants = constantsFor(file);
    for (const call of callsOf(text, "recordAudit")) {
      const action = /\baction(?::\s*([^,\n}]+(?:\n\s*[?:][^,\n}]+)*))?[,\n}]/.exec(
        call.replace(/\/\/.*$/gm, ""),
      );
      assert(action, `${file}: no action in ${call}`);
      for (const value of valuesOf(action[1] ?? "action", constants, file)) actions.add(value);
      const entityType = /\bentityType:\s*([^,\n}]+)/.exec(call);
      assert(entityType, `${file}: no entity type in ${call}`);
      for (const value of valuesOf(entityType[1], constants, file)) entityTypes.add(value);
    }
    for (const call of callsOf(text, "recordCreation")) {
      const args = call.slice("recordCreation(".length, -1).split(",").map((arg) => arg.trim());
      for (const value of valuesOf(args[2], constants, file)) entityTypes.add(value);
      for (const value of args[5] ? valuesOf(args[5], constants, file) : ["create"]) actions.add(value);
    }
  }
  return { actions, entityTypes };
}

Deno.test("every action and entity type the server records has its phrase and its noun", async () => {
  const { actions, entityTypes } = await recorded();
  assert(actions.size > 40, `only ${actions.size} actions found: the scan is broken`);
  for (const known of ["create", "status_change", "approve", "execute", "sign_in_under_attack", "write"]) {
    assert(actions.has(known), `the scan missed ${known}`);
  }
  const missing = [...actions].filter((action) => !Object.hasOwn(ACTION_PHRASES, action));
  assert.deepEqual(missing, [], `actions without a phrase: ${missing.join(", ")}`);
  const nounless = [...entityTypes].filter((type) => !Object.hasOwn(ENTITY_NOUNS, type));
  assert.deepEqual(nounless, [], `entity types without a noun: ${nounless.join(", ")}`);
  for (
    const known of ["balance_sweep", "audit_checkpoint", "institution", "central_bank_connection", "webhook"]
  ) {
    assert(entityTypes.has(known), `the scan missed ${known}`);
  }
});

const jane = { label: "Jane Doe", link: "/users" };
const facts = (extra: Partial<AuditFacts>): AuditFacts => ({
  entityType: "institution",
  action: "create",
  changes: null,
  actor: jane,
  entity: { label: "First Bank", link: "/institutions/i1" },
  ...extra,
});

Deno.test("an approved sweep reads as a sentence with its actor, amount and accounts", () => {
  const parts = auditSentence(facts({
    entityType: "approval_request",
    action: "approve",
    entity: null,
    screenLink: "/approvals",
    requestKind: "sweep",
    amount: { amount: "3000000.00", currency: "USD" },
    from: { label: "Treasury (T-1)", link: "/balance-sweep" },
    to: { label: "Reserve (R-1)", link: "/balance-sweep" },
  }));
  assert.equal(
    sentenceText(parts),
    "Jane Doe approved the sweep of $3,000,000.00 from Treasury (T-1) to Reserve (R-1)",
  );
  assert.deepEqual(parts[0], { kind: "actor", label: "Jane Doe", link: "/users" });
  assert(parts.some((part) => part.kind === "amount" && part.text === "$3,000,000.00"));
  assert(
    parts.some((part) => part.kind === "entity" && part.label === "the sweep" && part.link === "/approvals"),
  );
});

Deno.test("created and status-changed institutions, and other requests, read as sentences", () => {
  assert.equal(sentenceText(auditSentence(facts({}))), "Jane Doe created the institution First Bank");
  const status = facts({
    action: "status_change",
    changes: { before: { status: "active" }, after: { status: "suspended" } },
  });
  assert.equal(
    sentenceText(auditSentence(status)),
    "Jane Doe changed the status of First Bank from active to suspended",
  );
  const load = facts({
    entityType: "approval_request",
    action: "request",
    entity: null,
    requestKind: "card_load",
    amount: { amount: "500", currency: "EUR" },
  });
  assert.equal(
    sentenceText(auditSentence(load)),
    "Jane Doe asked for approval of the card load request of €500.00",
  );
  const settings = facts({
    entityType: "system_settings",
    action: "update",
    entity: null,
    screenLink: "/settings",
  });
  assert.equal(sentenceText(auditSentence(settings)), "Jane Doe updated the system settings");
});

Deno.test("a daily outflow limit reads in its currency, and a removed one as no limit", () => {
  const limit = (before: string | null, after: string | null) =>
    sentenceText(auditSentence(facts({
      entityType: "ledger_account",
      action: "set_daily_outflow_limit",
      entity: { label: "Reserve (RES-1)", link: "/balance-sweep" },
      changes: {
        before: { dailyOutflowLimit: before },
        after: { dailyOutflowLimit: after },
        currency: "USD",
      },
    })));
  assert.equal(
    limit(null, "250000.00"),
    "Jane Doe set the daily outflow limit of the account Reserve (RES-1) to $250,000.00",
  );
  assert.equal(
    limit("250000.00", null),
    "Jane Doe set the daily outflow limit of the account Reserve (RES-1) from $250,000.00 to no limit",
  );
});

Deno.test("an unknown action or entity type reads as words, never snake_case", () => {
  const text = sentenceText(
    auditSentence(facts({ entityType: "widget_store", action: "frobnicate_all", entity: null })),
  );
  assert.equal(text, "Jane Doe performed “frobnicate all” on the widget store");
  assert(!/_/.test(text));
});

Deno.test("changes read as a before/after table, flattened, masked values as stored", () => {
  const rows = changeRows({
    before: { status: "pending", limits: { dailyMinor: 5 } },
    after: { status: "active", limits: { dailyMinor: 7 }, roles: ["auditor", "operator"], swift: true },
    cardNumber: "411111******1111",
  });
  assert.deepEqual(rows, [
    { field: "status", label: "Status", before: "pending", after: "active" },
    { field: "limits.dailyMinor", label: "Limits › Daily minor", before: "5", after: "7" },
    { field: "roles", label: "Roles", before: null, after: "auditor, operator" },
    { field: "swift", label: "Swift", before: null, after: "Yes" },
    { field: "cardNumber", label: "Card number", before: null, after: "411111******1111" },
  ]);
  assert.deepEqual(changeRows({ before: null, after: { accountId: "a1" } }), [
    { field: "accountId", label: "Account ID", before: null, after: "a1" },
  ]);
  assert.deepEqual(changeRows({ email: "x@y.test" }), [
    { field: "email", label: "Email", before: null, after: "x@y.test" },
  ]);
  assert.deepEqual(changeRows(null), []);
});

Deno.test("amounts are found where the rows keep them", () => {
  assert.deepEqual(amountInChanges({ loading: { amount: "10.00", currency: "USD" } }, null), {
    amount: "10.00",
    currency: "USD",
  });
  assert.deepEqual(amountInChanges({ after: { sweepAmount: "5.00", currency: "EUR" } }, null), {
    amount: "5.00",
    currency: "EUR",
  });
  assert.deepEqual(amountInChanges({ amount: "7.00" }, "GBP"), { amount: "7.00", currency: "GBP" });
  assert.equal(amountInChanges({ amount: "7.00" }, null), null);
});
