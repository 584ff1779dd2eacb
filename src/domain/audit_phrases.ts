/**
 * The audit trail in words: each recorded (entity type, action) reads as a sentence made of parts
 * the screen renders (plain text, the actor, an entity and an amount), so names link to their
 * screens and amounts read in en-US currency format. The server resolves names; this module only
 * arranges them.
 *
 * @module
 */
import { APPROVAL_KIND_LABELS, type ApprovalKind } from "./approval.ts";
import { formatCurrencyEnUs, parseMoney } from "./money.ts";

/** Something named in a sentence: its label and, where a screen shows it, the link to that screen. */
export interface NamedRef {
  label: string;
  link: string | null;
}

export type SentencePart =
  | { kind: "text"; text: string }
  | { kind: "actor"; label: string; link: string | null }
  | { kind: "entity"; label: string; link: string | null }
  | { kind: "amount"; text: string };

/** An amount as the rows keep it: a decimal string ("3000000.00") in a currency. */
export interface AuditAmount {
  amount: string;
  currency: string;
}

/** What the server knows of one audit row once names are resolved. */
export interface AuditFacts {
  entityType: string;
  action: string;
  changes: unknown;
  actor: NamedRef;
  /** The row's entity by name; null when it has none worth saying (singleton settings, a sign-in). */
  entity: NamedRef | null;
  /** The amount moved or requested, when the event is about money. */
  amount?: AuditAmount | null;
  /** What money moves from and to: a sweep's accounts, an opening balance's account, a funded card. */
  from?: NamedRef | null;
  to?: NamedRef | null;
  /** An approval request's kind. */
  requestKind?: string | null;
  /** The screen of an entity with no name of its own (the system settings, a sweep). */
  screenLink?: string | null;
}

/** What each entity type is called in a sentence ("the institution First Bank"). */
export const ENTITY_NOUNS: Readonly<Record<string, string>> = {
  api_key: "API key",
  api_logs: "API request log",
  approval_request: "approval request",
  approval_settings: "approval settings",
  audit_checkpoint: "audit checkpoint",
  audit_trail: "audit trail",
  backup: "backup",
  balance_sweep: "sweep",
  card: "card",
  central_bank_connection: "central bank connection",
  compliance_filing: "compliance filing",
  directory_edition: "directory edition",
  divergence_report: "divergence report",
  expedition_request: "expedition request",
  fintech_operation: "fintech operation",
  iban_config: "IBAN configuration",
  institution: "institution",
  ledger_account: "account",
  ledger_entry: "ledger entry",
  ledger_reconciliation: "ledger reconciliation",
  national_routing_entry: "national routing entry",
  registry_import: "registry import",
  node: "node",
  report: "report",
  routing_code: "routing code",
  session: "session",
  sign_in_settings: "sign-in settings",
  smtp_settings: "mail server settings",
  swift_code: "SWIFT code",
  sweep_schedule_run: "scheduled sweep run",
  system_settings: "system settings",
  user: "user",
  user_identity: "provider identity",
  webhook: "webhook",
  webhook_delivery: "webhook delivery",
};

/** "status_change" → "status change": how a name made for code reads to a person. */
export function humanise(name: string): string {
  return name.replace(/[_-]+/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").trim().toLowerCase();
}

export function entityNoun(entityType: string): string {
  return ENTITY_NOUNS[entityType] ?? humanise(entityType);
}

const text = (value: string): SentencePart => ({ kind: "text", text: value });

/** "$3,000,000.00"; an amount that does not parse is shown as stored, beside its currency. */
export function formatAuditAmount({ amount, currency }: AuditAmount): string {
  const parsed = parseMoney(amount);
  if (!parsed.ok) return `${amount} ${currency}`;
  try {
    return formatCurrencyEnUs(parsed.value, currency);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** "the institution First Bank", or "the system settings" (linked to its screen) for an entity without a name. */
function theEntity(facts: AuditFacts, noun = entityNoun(facts.entityType)): SentencePart[] {
  if (facts.entity !== null) return [text(`the ${noun} `), { kind: "entity", ...facts.entity }];
  return facts.screenLink
    ? [{ kind: "entity", label: `the ${noun}`, link: facts.screenLink }]
    : [text(`the ${noun}`)];
}

/** The entity by name alone ("First Bank"), or "the <noun>" when it has none. */
function named(facts: AuditFacts): SentencePart[] {
  return facts.entity === null ? theEntity(facts) : [{ kind: "entity", ...facts.entity }];
}

/** Where the row's subject is shown, named or not. */
const subjectLink = (facts: AuditFacts) => facts.entity?.link ?? facts.screenLink ?? null;

function amountPart(facts: AuditFacts): SentencePart[] {
  return facts.amount ? [{ kind: "amount", text: formatAuditAmount(facts.amount) }] : [];
}

/** " of $3,000,000.00 from A to B": what a sweep moves, as far as it is known. */
function movement(facts: AuditFacts): SentencePart[] {
  const parts: SentencePart[] = [];
  if (facts.amount) parts.push(text(" of "), ...amountPart(facts));
  if (facts.from) parts.push(text(" from "), { kind: "entity", ...facts.from });
  if (facts.to) parts.push(text(" to "), { kind: "entity", ...facts.to });
  return parts;
}

/** "the sweep of $3,000,000.00 from A to B", "the card load request of $500.00". */
function requestSubject(facts: AuditFacts): SentencePart[] {
  const kind = facts.requestKind;
  const link = subjectLink(facts);
  if (kind === "sweep" || kind === "auto_sweep") {
    const noun = kind === "sweep" ? "the sweep" : "the automatic sweep run";
    return [{ kind: "entity", label: noun, link }, ...movement(facts)];
  }
  const label = kind && kind in APPROVAL_KIND_LABELS ? APPROVAL_KIND_LABELS[kind as ApprovalKind] : null;
  const noun = label
    ? `the ${label.charAt(0).toLowerCase()}${label.slice(1)} request`
    : "the approval request";
  const parts: SentencePart[] = [{ kind: "entity", label: noun, link }];
  if (facts.amount) parts.push(text(" of "), ...amountPart(facts));
  return parts;
}

/** A record's field from the row's changes: `changes[side][field]` as text, or null. */
export function changedValue(changes: unknown, side: "before" | "after", field: string): string | null {
  const value = recordOf(recordOf(changes)?.[side])?.[field];
  if (value === undefined || value === null) return null;
  return Array.isArray(value) ? value.map(String).join(", ") : String(value);
}

/** " from active to suspended", or less when a side is not recorded. */
function fromTo(facts: AuditFacts, field: string, readable = humanise): SentencePart[] {
  const before = changedValue(facts.changes, "before", field);
  const after = changedValue(facts.changes, "after", field);
  const parts: SentencePart[] = [];
  if (before !== null) parts.push(text(` from ${readable(before)}`));
  if (after !== null) parts.push(text(` to ${readable(after)}`));
  return parts;
}

const asIs = (value: string) => value;

type Phrase = (facts: AuditFacts) => SentencePart[];

/** A verb before the entity: "created the institution First Bank". */
const verb = (word: string): Phrase => (facts) => [text(`${word} `), ...theEntity(facts)];
/** Words that say it all, with no entity named. */
const fixed = (words: string): Phrase => () => [text(words)];
/** A verb before the entity by name: "reset the password of Jane Doe". */
const about = (words: string): Phrase => (facts) => [text(`${words} `), ...named(facts)];

/** What a pruning removed: "pruned 12 rows of the API request log". */
const pruned: Phrase = (facts) => {
  const deleted = recordOf(facts.changes)?.deleted;
  const noun = facts.entityType === "report"
    ? "generated reports"
    : `rows of the ${entityNoun(facts.entityType)}`;
  return [
    text(typeof deleted === "number" ? `pruned ${deleted} ${noun} past retention` : `pruned old ${noun}`),
  ];
};

/**
 * The phrase of every action the server records (see tests/domain/audit_phrases_test.ts, which
 * finds them in the source). Each phrase follows the actor: "Jane Doe" + "created the institution …".
 */
export const ACTION_PHRASES: Readonly<Record<string, Phrase>> = {
  create: verb("created"),
  seed: verb("seeded"),
  establish: verb("established"),
  update: verb("updated"),
  delete: verb("deleted"),
  test: verb("tested"),
  revoke: (facts) =>
    facts.entityType === "session"
      ? [text("ended the sessions of "), ...named(facts)]
      : verb("revoked")(facts),
  generate: verb("generated"),
  generate_failed: (facts) => [text("could not generate "), ...theEntity(facts)],
  redeliver: verb("redelivered"),
  apply: (facts) => {
    const file = changedValue(facts.changes, "after", "fileName");
    return [text("applied "), ...theEntity(facts), ...(file === null ? [] : [text(` of the file ${file}`)])];
  },
  apply_failed: (facts) => {
    const file = changedValue(facts.changes, "after", "fileName");
    return [text("could not apply "), ...theEntity(facts), ...(file === null ? [] : [text(` of the file ${file}`)])];
  },
  publish: verb("published"),
  queue_publication: (facts) => [text("queued the publication of "), ...theEntity(facts)],
  publication_failed: (facts) => [text("could not publish "), ...theEntity(facts)],
  scheduled_change_applied: (facts) => [text("put in force the scheduled change of "), ...named(facts)],
  schedule_change: (facts) => {
    const from = recordOf(facts.changes)?.effectiveFrom;
    return [
      text("scheduled a change of "),
      ...named(facts),
      ...(typeof from === "string" ? [text(` from ${from.slice(0, 10)}`)] : []),
    ];
  },
  status_change: (facts) => [text("changed the status of "), ...named(facts), ...fromTo(facts, "status")],
  prune: pruned,
  login: fixed("signed in"),
  login_password: fixed("entered the right password and was asked for the second factor"),
  login_failed: (facts) =>
    facts.entity === null
      ? [text("recorded a failed sign-in")]
      : [text("recorded a failed sign-in of "), ...named(facts)],
  logout: fixed("signed out"),
  second_factor_failed: fixed("entered a wrong second-factor code"),
  second_factor_reset: about("reset the second factor of"),
  sign_in_under_attack: (facts) => [text("raised an alert: repeated failed sign-ins to "), ...named(facts)],
  role_mapping_held: (facts) => [
    text("held the identity provider's role change of "),
    ...named(facts),
    text(" for an administrator to confirm"),
  ],
  rekey: fixed("re-keyed the audit trail's hash chain"),
  write: fixed("wrote a signed audit checkpoint"),
  link: (facts) => [text("linked a provider identity to "), ...named(facts)],
  unlink: (facts) => [text("unlinked a provider identity from "), ...named(facts)],
  disable: verb("disabled"),
  enable: verb("re-enabled"),
  update_roles: (facts) => [text("changed the roles of "), ...named(facts), ...fromTo(facts, "roles", asIs)],
  confirm_roles: (facts) => [text("confirmed the roles of "), ...named(facts)],
  reset_password: about("reset the password of"),
  change_password: fixed("changed their own password"),
  notification_email_preferences: (
    facts,
  ) => [text("changed the e-mail notification choices of "), ...named(facts)],
  card_funding: (
    facts,
  ) => [text("funded a card with "), ...amountPart(facts), text(" from "), ...theEntity(facts)],
  issue: verb("issued"),
  distribute: verb("distributed"),
  load: (facts) => [text("loaded "), ...amountPart(facts), text(" onto "), ...theEntity(facts)],
  opening: (facts) => [
    text("booked an opening balance of "),
    ...amountPart(facts),
    ...(facts.to ? [text(" on the account "), { kind: "entity" as const, ...facts.to }] : []),
  ],
  set_daily_outflow_limit: (facts) => {
    const currency = recordOf(facts.changes)?.currency;
    const asMoney = (amount: string) =>
      typeof currency === "string" ? formatAuditAmount({ amount, currency }) : amount;
    // A removed limit is stored as null: said as "no limit", not left out.
    const removed = changedValue(facts.changes, "after", "dailyOutflowLimit") === null;
    return [
      text("set the daily outflow limit of "),
      ...theEntity(facts),
      ...fromTo(facts, "dailyOutflowLimit", asMoney),
      ...(removed ? [text(" to no limit")] : []),
    ];
  },

  request: (facts) => [text("asked for approval of "), ...requestSubject(facts)],
  approve: (facts) => [text("approved "), ...requestSubject(facts)],
  reject: (facts) => [text("rejected "), ...requestSubject(facts)],
  cancel: (facts) => [text("withdrew "), ...requestSubject(facts)],
  execute: (
    facts,
  ) => [
    text("executed "),
    { kind: "entity", label: "a sweep", link: subjectLink(facts) },
    ...movement(facts),
  ],
  run: fixed("ran the scheduled automatic sweeps"),
  difference_found: fixed("found a difference between the ledger's balances and its journal"),
  replica_rebuilt_after_restore: fixed("recorded that a replica was rebuilt after a restore"),
  changes_paused: (facts) => [text("paused changes at "), ...theEntity(facts)],
  backup: fixed("backed up the database"),
  backup_failed: fixed("tried to back up the database, and the backup failed"),
  plaid_verify_account: fixed("verified a bank account through Plaid"),
  plaid_check_balance: fixed("checked an account balance through Plaid"),
  visa_direct_transfer: (facts) => [text("sent a Visa Direct transfer"), ...ofAmount(facts)],
  visa_push_payment: (facts) => [text("sent a Visa push payment"), ...ofAmount(facts)],
};

function ofAmount(facts: AuditFacts): SentencePart[] {
  return facts.amount ? [text(" of "), ...amountPart(facts)] : [];
}

/** An action no phrase knows yet still reads as words: performed "frobnicate widgets" on the … */
const generic: Phrase = (facts) => [text(`performed “${humanise(facts.action)}” on `), ...theEntity(facts)];

/** The whole sentence: the actor, then the action's phrase. */
export function auditSentence(facts: AuditFacts): SentencePart[] {
  const phrase = Object.hasOwn(ACTION_PHRASES, facts.action) ? ACTION_PHRASES[facts.action] : generic;
  return [{ kind: "actor", ...facts.actor }, text(" "), ...phrase(facts)];
}

/** The sentence as plain text (for search, tests and screen readers' summaries). */
export function sentenceText(parts: readonly SentencePart[]): string {
  return parts.map((part) => part.kind === "text" || part.kind === "amount" ? part.text : part.label).join(
    "",
  );
}

/** The value as a plain record, or null for anything else (a list, a text, nothing). */
export const recordOf = (value: unknown): Record<string, unknown> | null =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : null;

/** An `{ amount, currency }`-like record's amount, under `amountField`, when it reads as one. */
function amountOf(
  record: Record<string, unknown> | null,
  amountField: string,
  currency: string | null,
): AuditAmount | null {
  const amount = record?.[amountField];
  const ownCurrency = typeof record?.currency === "string" ? record.currency : currency;
  if ((typeof amount !== "string" && typeof amount !== "number") || !ownCurrency) return null;
  return { amount: String(amount), currency: ownCurrency };
}

/**
 * The amount a row's changes record: a card load's or a payment's `{ amount, currency }`, a sweep's
 * `sweepAmount`, or a bare `amount` in `currency` (the account's, as the server knows it).
 */
export function amountInChanges(changes: unknown, currency: string | null): AuditAmount | null {
  const record = recordOf(changes);
  if (record === null) return null;
  return amountOf(recordOf(record.loading), "amount", currency) ??
    amountOf(recordOf(record.request), "amount", currency) ??
    amountOf(recordOf(record.after), "sweepAmount", currency) ??
    amountOf(record, "amount", currency);
}

/** Fields that name a record, in the order a person would pick them. */
const NAMING_FIELDS = [
  "name",
  "accountName",
  "partnerCentralBank",
  "cardNumber",
  "code",
  "bicCode",
  "institutionName",
  "countryCode",
  "email",
  "url",
] as const;

/** A name for an entity from its own changes (a deleted webhook, a created account), or null. */
export function labelInChanges(changes: unknown): string | null {
  const record = recordOf(changes);
  for (const side of [recordOf(record?.after), recordOf(record?.before), record]) {
    for (const field of NAMING_FIELDS) {
      const value = side?.[field];
      if (typeof value === "string" && value.trim() !== "") return value;
    }
  }
  return null;
}

/** A field of a change as the before/after table shows it; null where that side holds nothing. */
export interface ChangeRow {
  field: string;
  label: string;
  before: string | null;
  after: string | null;
}

/** "sourceAccount.currentBalance" → "Source account › Current balance". */
export function fieldLabel(path: string): string {
  return path.split(".").map((key) => {
    const words = /^\d+$/.test(key) ? `#${Number(key) + 1}` : humanise(key).replace(/\bid\b/g, "ID");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }).join(" › ");
}

function scalarText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return String(value);
}

/** Leaves of a value by dotted path; a list of plain values reads as one comma-separated value. */
export function flattenValue(value: unknown, prefix = "", into = new Map<string, string | null>()) {
  const isPlainList = Array.isArray(value) &&
    value.every((item) => typeof item !== "object" || item === null);
  if (isPlainList) {
    into.set(
      prefix || "value",
      value.length === 0 ? "(none)" : value.map((item) => scalarText(item) ?? "—").join(", "),
    );
  } else if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0 && prefix) into.set(prefix, "(none)");
    for (const [key, item] of entries) flattenValue(item, prefix ? `${prefix}.${key}` : key, into);
  } else {
    into.set(prefix || "value", scalarText(value));
  }
  return into;
}

/**
 * A row's changes as a before/after table: `{ before, after }` side by side, field by field; any
 * other recorded detail (or changes with no sides at all) as a value recorded with the event, in
 * the "after" column. Values are shown as stored, so masked card numbers and secrets stay masked.
 */
export function changeRows(changes: unknown): ChangeRow[] {
  const record = recordOf(changes);
  if (changes === null || changes === undefined) return [];
  if (record === null) return [{ field: "value", label: "Value", before: null, after: scalarText(changes) }];
  const hasSides = "before" in record || "after" in record;
  const side = (value: unknown) =>
    hasSides && value !== null && value !== undefined
      ? flattenValue(value)
      : new Map<string, string | null>();
  const before = side(record.before);
  const after = side(record.after);
  const rest = Object.entries(record).filter(([key]) => !hasSides || (key !== "before" && key !== "after"));
  for (const [field, value] of flattenValue(Object.fromEntries(rest))) {
    if (!after.has(field)) after.set(field, value);
  }
  const fields = [...new Set([...before.keys(), ...after.keys()])];
  return fields.map((field) => ({
    field,
    label: fieldLabel(field),
    before: before.get(field) ?? null,
    after: after.get(field) ?? null,
  }));
}
