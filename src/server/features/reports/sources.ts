/**
 * What each report type contains: its columns and its rows, read straight from the tables of
 * db/schema.ts page by page (keyset pagination, REPORT_PAGE_SIZE rows a query), so a report of any
 * length holds one page in memory.
 *
 * Every source reads a fixed snapshot: rows created before the generation started (`cutoff`), and
 * for the audit trail rows up to the last sequence number present at the start.
 */
import { and, asc, eq, gt, gte, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteSelect } from "drizzle-orm/sqlite-core";
import { apiLogs, auditTrail, institutions, routingCodes, swiftCodes, users } from "../../../../db/schema.ts";
import { type DateRange, rangeBounds, type ReportType } from "../../../domain/report.ts";
import type { Cell } from "../../../domain/report_encoding.ts";
import { maskCardNumbersOutsideIdentifiers } from "../../../domain/redaction.ts";
import { auditChainHasher, GENESIS_HASH, verifyAuditChain } from "../../audit/trail.ts";
import type { Db } from "../../db/database.ts";

export const REPORT_PAGE_SIZE = 1_000;
export const IBAN_VALIDATE_ENDPOINT = "/api/iban/validate";
export const IBAN_VALIDATE_METHOD = "POST";

export interface ReportColumn {
  /** Machine name: CSV header, XML element name. */
  key: string;
  /** Human heading: PDF and XLSX. */
  label: string;
  kind: "text" | "integer" | "boolean" | "timestamp";
  /** Relative width in the PDF table; columns without one are left out of the PDF (ids, user agents). */
  pdfWeight?: number;
  /** Counted by value on the PDF's summary page (a status, a type, an outcome). */
  summarize?: true;
  /** A stored code (a status, a type, an action): the PDF shows its label, the other formats the code. */
  coded?: true;
  /** JSON text: the PDF spaces it so that it wraps between members. */
  json?: true;
  /** A count whose sum the PDF's summary page states (branches). */
  total?: true;
}

export interface ReportNote {
  /** Machine name (XML attribute, XLSX summary key). */
  name: string;
  label: string;
  value: string;
}

export interface ReportData {
  columns: readonly ReportColumn[];
  /** Statements that belong to the whole report, such as the audit chain verification. */
  notes: readonly ReportNote[];
  pages: () => AsyncGenerator<Cell[][]>;
}

export interface SourceContext {
  db: Db;
  range: DateRange;
  /** Rows created at or after this instant are not part of the report. */
  cutoff: string;
}

interface Window {
  start: string;
  end: string;
}

function windowOf(ctx: SourceContext): Window {
  const { start, endExclusive } = rangeBounds(ctx.range);
  return { start, end: endExclusive < ctx.cutoff ? endExclusive : ctx.cutoff };
}

interface TimeKey {
  at: string;
  id: string;
}

/** Rows strictly after `after` in (time, id) order. */
function afterKey(time: SQLiteColumn, id: SQLiteColumn, after: TimeKey | null): SQL | undefined {
  if (!after) return undefined;
  return or(gt(time, after.at), and(eq(time, after.at), gt(id, after.id)));
}

/** One keyset page of a source in (time, id) order: its rows in the window (and `extra`) after `after`. */
function windowPage<Query extends SQLiteSelect>(
  query: Query,
  page: { window: Window; time: SQLiteColumn; id: SQLiteColumn; after: TimeKey | null; extra?: SQL },
) {
  const { window, time, id, after, extra } = page;
  return query
    .where(and(gte(time, window.start), lt(time, window.end), extra, afterKey(time, id, after)))
    .orderBy(asc(time), asc(id))
    .limit(REPORT_PAGE_SIZE);
}

/** Drives a keyset query until a short page: `fetch(after)` returns the next rows and their keys. */
async function* keysetPages<Row, Key>(
  fetch: (after: Key | null) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
  toCells: (row: Row) => Cell[],
): AsyncGenerator<Cell[][]> {
  let after: Key | null = null;
  for (;;) {
    const rows = await fetch(after);
    if (rows.length > 0) {
      yield rows.map(toCells);
      after = keyOf(rows[rows.length - 1]);
    }
    if (rows.length < REPORT_PAGE_SIZE) return;
  }
}

/** A page query's row: what awaiting the query gives, one element of. */
type RowOf<Query> = Awaited<Query> extends (infer Row)[] ? Row : never;

/** A report read from one query in (time, id) order within the window: most report types are one. */
interface WindowSource<Query extends SQLiteSelect> {
  columns: readonly ReportColumn[];
  /** A fresh dynamic query for each page, since a page sets its own filter, order and limit. */
  select: () => Query;
  time: SQLiteColumn;
  id: SQLiteColumn;
  extra?: SQL;
  keyOf: (row: RowOf<Query>) => TimeKey;
  toCells: (row: RowOf<Query>) => Cell[];
}

function windowPages<Query extends SQLiteSelect>(
  window: Window,
  source: Omit<WindowSource<Query>, "columns">,
): AsyncGenerator<Cell[][]> {
  const { select, time, id, extra, keyOf, toCells } = source;
  return keysetPages(
    async (after: TimeKey | null) =>
      (await windowPage(select(), { window, time, id, after, extra })) as RowOf<Query>[],
    keyOf,
    toCells,
  );
}

function windowReport<Query extends SQLiteSelect>(
  ctx: SourceContext,
  source: WindowSource<Query>,
): ReportData {
  const window = windowOf(ctx);
  return { columns: source.columns, notes: [], pages: () => windowPages(window, source) };
}

const INSTITUTION_COLUMNS: readonly ReportColumn[] = [
  { key: "id", label: "Id", kind: "text" },
  { key: "name", label: "Institution", kind: "text", pdfWeight: 3 },
  { key: "type", label: "Type", kind: "text", pdfWeight: 1.4, summarize: true, coded: true },
  { key: "registrationNumber", label: "Registration Number", kind: "text", pdfWeight: 2 },
  { key: "licenseNumber", label: "License Number", kind: "text", pdfWeight: 1.6 },
  { key: "status", label: "Status", kind: "text", pdfWeight: 1, summarize: true, coded: true },
  { key: "numberOfBranches", label: "Branches", kind: "integer", pdfWeight: 0.9, total: true },
  { key: "swiftParticipant", label: "SWIFT Participant", kind: "boolean", pdfWeight: 1 },
  { key: "swiftMembershipType", label: "SWIFT Membership", kind: "text", pdfWeight: 1.2, coded: true },
  { key: "emailAddress", label: "E-mail", kind: "text", pdfWeight: 2.2 },
  { key: "phoneNumber", label: "Phone", kind: "text", pdfWeight: 1.5 },
  { key: "address", label: "Address", kind: "text", pdfWeight: 3 },
  { key: "createdAt", label: "Registered", kind: "timestamp", pdfWeight: 2.1 },
  { key: "updatedAt", label: "Updated", kind: "timestamp" },
  { key: "createdBy", label: "Registered By", kind: "text" },
];

function institutionsReport(ctx: SourceContext): ReportData {
  const t = institutions;
  return windowReport(ctx, {
    columns: INSTITUTION_COLUMNS,
    select: () => ctx.db.select().from(t).$dynamic(),
    time: t.createdAt,
    id: t.id,
    keyOf: (row) => ({ at: row.createdAt, id: row.id }),
    toCells: (row) => [
      row.id,
      row.name,
      row.type,
      row.registrationNumber,
      row.licenseNumber,
      row.status,
      row.numberOfBranches,
      row.swiftParticipant,
      row.swiftMembershipType,
      row.emailAddress,
      row.phoneNumber,
      row.address,
      row.createdAt,
      row.updatedAt,
      row.createdBy,
    ],
  });
}

const ROUTING_CODE_COLUMNS: readonly ReportColumn[] = [
  { key: "id", label: "Id", kind: "text" },
  { key: "code", label: "Routing Code", kind: "text", pdfWeight: 2 },
  { key: "prefix", label: "Prefix", kind: "text", pdfWeight: 0.8 },
  { key: "institutionId", label: "Institution Id", kind: "text" },
  { key: "institutionName", label: "Institution", kind: "text", pdfWeight: 3 },
  { key: "branchCode", label: "Branch Code", kind: "text", pdfWeight: 1.1 },
  { key: "status", label: "Status", kind: "text", pdfWeight: 1, summarize: true, coded: true },
  { key: "description", label: "Description", kind: "text", pdfWeight: 3.5 },
  { key: "createdAt", label: "Created", kind: "timestamp", pdfWeight: 2.1 },
  { key: "updatedAt", label: "Updated", kind: "timestamp" },
  { key: "createdBy", label: "Created By", kind: "text" },
];

function routingCodesReport(ctx: SourceContext): ReportData {
  const t = routingCodes;
  return windowReport(ctx, {
    columns: ROUTING_CODE_COLUMNS,
    select: () =>
      ctx.db.select({ code: t, institutionName: institutions.name }).from(t)
        .leftJoin(institutions, eq(institutions.id, t.institutionId)).$dynamic(),
    time: t.createdAt,
    id: t.id,
    keyOf: (row) => ({ at: row.code.createdAt, id: row.code.id }),
    toCells: ({ code, institutionName }) => [
      code.id,
      code.code,
      code.prefix,
      code.institutionId,
      institutionName,
      code.branchCode,
      code.status,
      code.description,
      code.createdAt,
      code.updatedAt,
      code.createdBy,
    ],
  });
}

const SWIFT_ACTIVITY_COLUMNS: readonly ReportColumn[] = [
  { key: "activity", label: "Activity", kind: "text", pdfWeight: 1.2, summarize: true, coded: true },
  { key: "activityAt", label: "When", kind: "timestamp", pdfWeight: 2.1 },
  { key: "id", label: "Id", kind: "text" },
  { key: "bicCode", label: "BIC Code", kind: "text", pdfWeight: 1.6 },
  { key: "bankCode", label: "Bank Code", kind: "text", pdfWeight: 0.9 },
  { key: "countryCode", label: "Country", kind: "text", pdfWeight: 0.8 },
  { key: "locationCode", label: "Location", kind: "text", pdfWeight: 0.8 },
  { key: "branchCode", label: "Branch", kind: "text", pdfWeight: 0.8 },
  { key: "institutionId", label: "Institution Id", kind: "text" },
  { key: "institutionName", label: "Institution", kind: "text", pdfWeight: 3 },
  { key: "membershipType", label: "Membership", kind: "text", pdfWeight: 1.2, coded: true },
  { key: "status", label: "Status", kind: "text", pdfWeight: 1, coded: true },
  { key: "validFrom", label: "Valid From", kind: "timestamp", pdfWeight: 2.1 },
  { key: "validUntil", label: "Valid Until", kind: "timestamp", pdfWeight: 2.1 },
  { key: "createdAt", label: "Registered", kind: "timestamp" },
  { key: "updatedAt", label: "Last Changed", kind: "timestamp" },
];

/**
 * BICs registered in the range ("registered"), then BICs registered earlier and changed in the
 * range ("changed"); one row per BIC, each part in time order.
 */
function swiftActivityReport(ctx: SourceContext): ReportData {
  const window = windowOf(ctx);
  const t = swiftCodes;
  type Row = { bic: typeof t.$inferSelect; institutionName: string | null };
  const toCells = (activity: "registered" | "changed") => ({ bic, institutionName }: Row): Cell[] => [
    activity,
    activity === "registered" ? bic.createdAt : bic.updatedAt,
    bic.id,
    bic.bicCode,
    bic.bankCode,
    bic.countryCode,
    bic.locationCode,
    bic.branchCode,
    bic.institutionId,
    institutionName,
    bic.membershipType,
    bic.status,
    bic.validFrom,
    bic.validUntil,
    bic.createdAt,
    bic.updatedAt,
  ];
  const select = () =>
    ctx.db.select({ bic: t, institutionName: institutions.name }).from(t)
      .leftJoin(institutions, eq(institutions.id, t.institutionId)).$dynamic();
  return {
    columns: SWIFT_ACTIVITY_COLUMNS,
    notes: [],
    pages: async function* () {
      yield* windowPages(window, {
        select,
        time: t.createdAt,
        id: t.id,
        keyOf: (row: Row) => ({ at: row.bic.createdAt, id: row.bic.id }),
        toCells: toCells("registered"),
      });
      yield* windowPages(window, {
        select,
        time: t.updatedAt,
        id: t.id,
        extra: lt(t.createdAt, window.start),
        keyOf: (row: Row) => ({ at: row.bic.updatedAt, id: row.bic.id }),
        toCells: toCells("changed"),
      });
    },
  };
}

const IBAN_VALIDATION_COLUMNS: readonly ReportColumn[] = [
  { key: "id", label: "Id", kind: "text" },
  { key: "createdAt", label: "When", kind: "timestamp", pdfWeight: 2.1 },
  { key: "iban", label: "IBAN (masked)", kind: "text", pdfWeight: 2.4 },
  { key: "outcome", label: "Outcome", kind: "text", pdfWeight: 1, summarize: true, coded: true },
  { key: "countryCode", label: "Country", kind: "text", pdfWeight: 0.8 },
  { key: "reason", label: "Reason", kind: "text", pdfWeight: 3.2 },
  { key: "responseStatus", label: "HTTP Status", kind: "integer", pdfWeight: 0.9 },
  { key: "responseTimeMs", label: "Time (ms)", kind: "integer", pdfWeight: 0.9 },
  { key: "clientIp", label: "Client IP", kind: "text", pdfWeight: 1.6 },
  { key: "apiKeyId", label: "API Key Id", kind: "text" },
  { key: "userId", label: "User Id", kind: "text" },
];

const IBAN_SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/;
const IBAN_VISIBLE_TAIL = 4;

/**
 * An IBAN identifies one person's account, so the report shows country, check digits and the last
 * four characters only. Anything that is not IBAN-shaped (already redacted by the request log) is
 * shown as logged.
 */
export function maskIban(value: string | null): string | null {
  if (value === null) return null;
  const compact = value.replace(/\s+/g, "").toUpperCase();
  if (!IBAN_SHAPE.test(compact) || compact.length <= 4 + IBAN_VISIBLE_TAIL) return value;
  const hidden = compact.length - 4 - IBAN_VISIBLE_TAIL;
  return `${compact.slice(0, 4)}${"*".repeat(hidden)}${compact.slice(-IBAN_VISIBLE_TAIL)}`;
}

/**
 * Where a logged payload keeps the value: the request log stores a request as {query, body} and a
 * response as sent, which for API-key callers is the {data, success, timestamp} envelope.
 */
const PAYLOAD_ROOTS = ["$", "$.body", "$.data"] as const;

/** A JSON path of a payload column, from the first root that has it; null when the payload is not an object. */
function payloadValue(column: SQLiteColumn, path: string) {
  const object = sql`CASE WHEN json_type(${column}) = 'object' THEN ${column} END`;
  const candidates = PAYLOAD_ROOTS.map((root) => sql`json_extract(${object}, ${`${root}.${path}`})`);
  return sql<string | number | null>`coalesce(${sql.join(candidates, sql`, `)})`;
}

function outcomeOf(valid: unknown, status: number): string {
  if (valid === 1 || valid === true) return "valid";
  if (valid === 0 || valid === false) return "invalid";
  return status >= 400 ? "error" : "unknown";
}

function ibanValidationReport(ctx: SourceContext): ReportData {
  const t = apiLogs;
  return windowReport(ctx, {
    columns: IBAN_VALIDATION_COLUMNS,
    select: () =>
      ctx.db.select({
        id: t.id,
        createdAt: t.createdAt,
        iban: payloadValue(t.requestPayload, "iban"),
        valid: payloadValue(t.responsePayload, "valid"),
        countryCode: payloadValue(t.responsePayload, "details.countryCode"),
        reason: payloadValue(t.responsePayload, "details.error"),
        responseStatus: t.responseStatus,
        responseTime: t.responseTime,
        clientIp: t.clientIp,
        apiKeyId: t.apiKeyId,
        userId: t.userId,
      }).from(t).$dynamic(),
    time: t.createdAt,
    id: t.id,
    extra: and(eq(t.endpoint, IBAN_VALIDATE_ENDPOINT), eq(t.method, IBAN_VALIDATE_METHOD)),
    keyOf: (row) => ({ at: row.createdAt, id: row.id }),
    toCells: (row) => [
      row.id,
      row.createdAt,
      maskIban(row.iban === null ? null : String(row.iban)),
      outcomeOf(row.valid, row.responseStatus),
      row.countryCode === null ? null : String(row.countryCode),
      row.reason === null ? null : String(row.reason),
      row.responseStatus,
      row.responseTime,
      row.clientIp,
      row.apiKeyId,
      row.userId,
    ],
  });
}

const API_USAGE_COLUMNS: readonly ReportColumn[] = [
  { key: "id", label: "Id", kind: "text" },
  { key: "createdAt", label: "When", kind: "timestamp", pdfWeight: 2.1 },
  { key: "method", label: "Method", kind: "text", pdfWeight: 0.8, summarize: true },
  { key: "endpoint", label: "Endpoint", kind: "text", pdfWeight: 4 },
  { key: "responseStatus", label: "HTTP Status", kind: "integer", pdfWeight: 0.9, summarize: true },
  { key: "responseTimeMs", label: "Time (ms)", kind: "integer", pdfWeight: 0.9 },
  { key: "clientIp", label: "Client IP", kind: "text", pdfWeight: 1.6 },
  { key: "userAgent", label: "User Agent", kind: "text" },
  { key: "apiKeyId", label: "API Key Id", kind: "text", pdfWeight: 2.4 },
  { key: "userId", label: "User Id", kind: "text", pdfWeight: 2.4 },
];

function apiUsageReport(ctx: SourceContext): ReportData {
  const t = apiLogs;
  return windowReport(ctx, {
    columns: API_USAGE_COLUMNS,
    select: () =>
      ctx.db.select({
        id: t.id,
        createdAt: t.createdAt,
        method: t.method,
        endpoint: t.endpoint,
        responseStatus: t.responseStatus,
        responseTime: t.responseTime,
        clientIp: t.clientIp,
        userAgent: t.userAgent,
        apiKeyId: t.apiKeyId,
        userId: t.userId,
      }).from(t).$dynamic(),
    time: t.createdAt,
    id: t.id,
    keyOf: (row) => ({ at: row.createdAt, id: row.id }),
    toCells: (row) => [
      row.id,
      row.createdAt,
      row.method,
      row.endpoint,
      row.responseStatus,
      row.responseTime,
      row.clientIp,
      row.userAgent,
      row.apiKeyId,
      row.userId,
    ],
  });
}

const AUDIT_TRAIL_COLUMNS: readonly ReportColumn[] = [
  { key: "seq", label: "Seq", kind: "integer", pdfWeight: 0.7 },
  { key: "id", label: "Id", kind: "text" },
  { key: "performedAt", label: "When", kind: "timestamp", pdfWeight: 2.1 },
  { key: "entityType", label: "Entity", kind: "text", pdfWeight: 1.3, summarize: true, coded: true },
  { key: "entityId", label: "Entity Id", kind: "text", pdfWeight: 2.3 },
  { key: "action", label: "Action", kind: "text", pdfWeight: 1.1, summarize: true, coded: true },
  { key: "performedBy", label: "Performed By (Id)", kind: "text" },
  { key: "performedByEmail", label: "Performed By", kind: "text", pdfWeight: 2 },
  { key: "ipAddress", label: "IP Address", kind: "text", pdfWeight: 1.3 },
  { key: "userAgent", label: "User Agent", kind: "text" },
  { key: "changes", label: "Changes", kind: "text", pdfWeight: 3.2, json: true },
  { key: "prevHash", label: "Previous Hash", kind: "text", pdfWeight: 2.5 },
  { key: "hash", label: "Hash", kind: "text", pdfWeight: 2.5 },
  { key: "rowVerified", label: "Row Verified", kind: "boolean", pdfWeight: 0.9 },
];

/** The CSV has no place for a statement about the whole file, so it carries the chain result as a last column. */
export const CHAIN_VERIFIED_COLUMN: ReportColumn = {
  key: "chainVerified",
  label: "Chain Verified",
  kind: "boolean",
};

export interface ChainStatement {
  verified: boolean;
  checkedEntries: number;
  statement: string;
}

async function auditChainStatement(db: Db): Promise<ChainStatement> {
  const result = await verifyAuditChain(db);
  if (result.ok) {
    return {
      verified: true,
      checkedEntries: result.checked,
      statement:
        `Audit chain verified: all ${result.checked} entries link and hash correctly (last hash ${result.lastHash}).`,
    };
  }
  const { seq, reason } = result.firstBroken;
  return {
    verified: false,
    checkedEntries: result.checked,
    statement:
      `Audit chain NOT verified: entry ${seq} is broken (${reason}); ${result.checked} entries before it verified.`,
  };
}

async function auditTrailReport(
  ctx: SourceContext,
  withChainColumn: boolean,
): Promise<ReportData & { chain: ChainStatement }> {
  const t = auditTrail;
  const [snapshot] = await ctx.db.select({ maxSeq: sql<number | null>`max(${t.seq})` }).from(t);
  const maxSeq = snapshot?.maxSeq ?? 0;
  const chain = await auditChainStatement(ctx.db);
  const hashOf = await auditChainHasher(ctx.db);
  const notes: ReportNote[] = [
    { name: "chainVerified", label: "Audit chain verified", value: chain.verified ? "true" : "false" },
    { name: "chainStatement", label: "Chain statement", value: chain.statement },
    { name: "chainEntriesChecked", label: "Chain entries checked", value: String(chain.checkedEntries) },
  ];
  return {
    chain,
    columns: withChainColumn ? [...AUDIT_TRAIL_COLUMNS, CHAIN_VERIFIED_COLUMN] : AUDIT_TRAIL_COLUMNS,
    notes,
    pages: () =>
      keysetPages(
        auditRowsFetcher(ctx, maxSeq, hashOf),
        (row) => row.seq,
        (row) => [
          row.seq,
          row.id,
          row.performedAt,
          row.entityType,
          row.entityId,
          row.action,
          row.performedBy,
          row.performedByEmail,
          row.ipAddress,
          row.userAgent,
          row.changes,
          row.prevHash,
          row.hash,
          row.rowVerified,
          ...(withChainColumn ? [chain.verified] : []),
        ],
      ),
  };
}

/**
 * The audit rows of the range up to `maxSeq` in seq order, each with whether it links to the row
 * before it and hashes correctly; the fetcher keeps the last row seen, so one is made per pass.
 */
function auditRowsFetcher(
  ctx: SourceContext,
  maxSeq: number,
  hashOf: Awaited<ReturnType<typeof auditChainHasher>>,
) {
  const { start, endExclusive } = rangeBounds(ctx.range);
  const t = auditTrail;
  let previous: { seq: number; hash: string } | null = null;
  return async (afterSeq: number | null) => {
    const rows = await ctx.db.select({
      seq: t.seq,
      id: t.id,
      entityType: t.entityType,
      entityId: t.entityId,
      action: t.action,
      // The raw JSON text: the hash covers the stored text, not a re-serialisation.
      changes: sql<string | null>`${t.changes}`,
      performedBy: t.performedBy,
      performedByEmail: users.email,
      performedAt: t.performedAt,
      ipAddress: t.ipAddress,
      userAgent: t.userAgent,
      prevHash: t.prevHash,
      hash: t.hash,
    }).from(t)
      .leftJoin(users, eq(users.id, t.performedBy))
      .where(and(
        gte(t.performedAt, start),
        lt(t.performedAt, endExclusive),
        lte(t.seq, maxSeq),
        afterSeq === null ? undefined : gt(t.seq, afterSeq),
      ))
      .orderBy(asc(t.seq))
      .limit(REPORT_PAGE_SIZE);
    if (previous === null && rows.length > 0) previous = await hashBefore(ctx.db, rows[0].seq);
    return rows.map((row) => {
      const linked = previous !== null && previous.seq === row.seq - 1 &&
        previous.hash === row.prevHash;
      const rowVerified = linked && hashOf(row) === row.hash;
      previous = { seq: row.seq, hash: row.hash };
      return { ...row, rowVerified };
    });
  };
}

/** The hash a row's prev_hash must equal: the previous row's, or the genesis hash before seq 1. */
async function hashBefore(db: Db, seq: number): Promise<{ seq: number; hash: string } | null> {
  if (seq === 1) return { seq: 0, hash: GENESIS_HASH };
  const [row] = await db.select({ seq: auditTrail.seq, hash: auditTrail.hash }).from(auditTrail)
    .where(eq(auditTrail.seq, seq - 1));
  return row ?? null;
}

export interface BuiltReport extends ReportData {
  /** Stored with the record: what a reader of the list should know without opening the file. */
  summary: Record<string, unknown> | null;
}

/**
 * Every report's text cells pass the card-number detection of the request log: a card number typed
 * into an address, a description or an audit row's changes leaves the server masked. Generated
 * identifiers (ids, hashes) are left as they are.
 */
async function* maskedPages(pages: AsyncGenerator<Cell[][]>): AsyncGenerator<Cell[][]> {
  for await (const page of pages) {
    yield page.map((row) =>
      row.map((cell) => typeof cell === "string" ? maskCardNumbersOutsideIdentifiers(cell) : cell)
    );
  }
}

export async function buildReportData(
  type: ReportType,
  ctx: SourceContext,
  options: { chainColumn: boolean },
): Promise<BuiltReport> {
  const built = await unmaskedReportData(type, ctx, options);
  return { ...built, pages: () => maskedPages(built.pages()) };
}

async function unmaskedReportData(
  type: ReportType,
  ctx: SourceContext,
  options: { chainColumn: boolean },
): Promise<BuiltReport> {
  switch (type) {
    case "institutions":
      return { ...institutionsReport(ctx), summary: null };
    case "routing-codes":
      return { ...routingCodesReport(ctx), summary: null };
    case "swift-activity":
      return { ...swiftActivityReport(ctx), summary: null };
    case "iban-validation":
      return { ...ibanValidationReport(ctx), summary: null };
    case "api-usage":
      return { ...apiUsageReport(ctx), summary: null };
    case "audit-trail": {
      const report = await auditTrailReport(ctx, options.chainColumn);
      return { ...report, summary: { chain: report.chain } };
    }
  }
}

/** Rows a report will hold (for the PDF size limit); the same filters as the sources, without the pages. */
export async function countReportRows(type: ReportType, ctx: SourceContext): Promise<number> {
  const window = windowOf(ctx);
  const count = sql<number>`count(*)`;
  const inWindow = (column: SQLiteColumn) => and(gte(column, window.start), lt(column, window.end));
  let rows: { count: number }[];
  switch (type) {
    case "institutions":
      rows = await ctx.db.select({ count }).from(institutions).where(inWindow(institutions.createdAt));
      break;
    case "routing-codes":
      rows = await ctx.db.select({ count }).from(routingCodes).where(inWindow(routingCodes.createdAt));
      break;
    case "swift-activity":
      rows = await ctx.db.select({ count }).from(swiftCodes).where(or(
        inWindow(swiftCodes.createdAt),
        and(inWindow(swiftCodes.updatedAt), lt(swiftCodes.createdAt, window.start)),
      ));
      break;
    case "iban-validation":
      rows = await ctx.db.select({ count }).from(apiLogs).where(and(
        eq(apiLogs.endpoint, IBAN_VALIDATE_ENDPOINT),
        eq(apiLogs.method, IBAN_VALIDATE_METHOD),
        inWindow(apiLogs.createdAt),
      ));
      break;
    case "api-usage":
      rows = await ctx.db.select({ count }).from(apiLogs).where(inWindow(apiLogs.createdAt));
      break;
    case "audit-trail": {
      const { start, endExclusive } = rangeBounds(ctx.range);
      rows = await ctx.db.select({ count }).from(auditTrail)
        .where(and(gte(auditTrail.performedAt, start), lt(auditTrail.performedAt, endExclusive)));
      break;
    }
  }
  return rows[0]?.count ?? 0;
}
