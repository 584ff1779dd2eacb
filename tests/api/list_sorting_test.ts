/**
 * Issue 23: the Approvals and Audit Trail tables sort on the server. Each whitelisted `sort` key, in
 * both orders, against the order computed here from the rows; ties keep the list's default order
 * (newest first), so paging through a sorted list meets every row exactly once; an unknown key or
 * order is a 400 naming the field.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { APPROVAL_SORT_KEYS } from "../../src/server/features/approvals/schemas.ts";
import { AUDIT_SORT_KEYS } from "../../src/server/features/audit_trail/schemas.ts";
import { createStaff, type Staff, seededStaff } from "../helpers/staff.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const KINDS = ["sweep", "opening_balance", "card_load", "institution_status"] as const;
const STORED_STATUSES = ["pending", "approved", "rejected", "cancelled"] as const;
const ROWS = 37;
const MINUTE_MS = 60_000;

interface ApprovalRow {
  id: string;
  kind: string;
  status: string;
  amount: string | null;
  requestedByName: string;
  requestedAt: string;
  expiresAt: string;
}

/** Requests written straight into the queue's table: every kind, status (expired too), amount and requester mixed. */
async function seedApprovals(t: TestApp, requesters: Staff[], decider: Staff) {
  const now = Date.now();
  await t.deps.db.transaction(async (tx) => {
    for (let i = 0; i < ROWS; i++) {
      const stored = STORED_STATUSES[i % STORED_STATUSES.length];
      const requestedAt = new Date(now - (i * 7 % ROWS) * MINUTE_MS - (i % 3) * 1000).toISOString();
      // Every fifth pending request has expired: it lists (and sorts) as "expired".
      const expiresAt = new Date(now + (i % 5 === 0 ? -MINUTE_MS : (i + 1) * MINUTE_MS)).toISOString();
      const decided = stored === "approved" || stored === "rejected";
      await tx.run(
        sql`INSERT INTO approval_requests (id, kind, status, payload, summary, amount_minor, currency,
          requested_by, request_reason, requested_at, expires_at, decided_by, decided_at, decision_reason)
        VALUES (${crypto.randomUUID()}, ${KINDS[i % KINDS.length]}, ${stored}, '{}',
          ${JSON.stringify({ description: `Request ${i}` })}, ${i % 4 === 3 ? null : (i * 7919) % 100_000},
          ${i % 4 === 3 ? null : "USD"}, ${requesters[i % requesters.length].id}, ${`Reason ${i}`},
          ${requestedAt}, ${expiresAt}, ${decided ? decider.id : null}, ${decided ? requestedAt : null},
          ${decided ? "Checked" : null})`,
      );
    }
  });
}

type Direction = "asc" | "desc";

/** Orders rows by `value` in `direction`; equal values keep the order of `fallback` (the default list). */
function expectedOrder<T>(
  fallback: T[],
  value: (row: T) => string | number | null,
  direction: Direction,
): T[] {
  const rank = (v: string | number | null) => v;
  return fallback.map((row, index) => ({ row, index })).sort((a, b) => {
    const x = rank(value(a.row));
    const y = rank(value(b.row));
    let cmp = 0;
    // SQLite puts NULL before every value in ascending order.
    if (x === null || y === null) cmp = x === y ? 0 : x === null ? -1 : 1;
    else if (typeof x === "number" && typeof y === "number") cmp = x - y;
    else cmp = String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
    return (direction === "desc" ? -cmp : cmp) || a.index - b.index;
  }).map(({ row }) => row);
}

/** Every row of a list, `pageSize` at a time. */
async function allPages<T>(
  get: (query: string) => Promise<Response>,
  query: string,
  pageSize: number,
): Promise<T[]> {
  const rows: T[] = [];
  for (let offset = 0;; offset += pageSize) {
    const res = await get(`${query}&limit=${pageSize}&offset=${offset}`);
    const total = Number(res.headers.get("x-total-count"));
    rows.push(...await expectJson<T[]>(res, 200));
    if (rows.length >= total) return rows;
  }
}

Deno.test("the approval queue sorts on the server by each column, both ways, and pages through the sorted list", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const requesters = [
      await createStaff(t, admin, "zoe.maker@centralbank.test", ["operator"]),
      await createStaff(t, admin, "Adam.maker@centralbank.test", ["operator"]),
      await createStaff(t, admin, "mia.maker@centralbank.test", ["operator"]),
    ];
    const approver = await seededStaff(t, "checker@centralbank.test", ["approver"]);
    await seedApprovals(t, requesters, approver);
    const get = (query: string) => t.request("GET", `/api/approvals?${query}`, { cookie: approver.cookie });

    const unsorted = await expectJson<ApprovalRow[]>(await get("limit=500"), 200);
    assert.equal(unsorted.length, ROWS);
    const newestFirst = [...unsorted].sort((a, b) =>
      a.requestedAt < b.requestedAt ? 1 : a.requestedAt > b.requestedAt ? -1 : a.id < b.id ? -1 : 1
    );
    assert.deepEqual(unsorted.map((r) => r.id), newestFirst.map((r) => r.id), "without sort: newest first");
    assert.ok(unsorted.some((r) => r.status === "expired"), "the data has expired requests");

    const values: Record<(typeof APPROVAL_SORT_KEYS)[number], (row: ApprovalRow) => string | number | null> =
      {
        requestedAt: (r) => r.requestedAt,
        kind: (r) => r.kind,
        amount: (r) => (r.amount === null ? null : Math.round(Number(r.amount) * 100)),
        requester: (r) => r.requestedByName.toLowerCase(),
        status: (r) => r.status,
      };
    for (const key of APPROVAL_SORT_KEYS) {
      for (const order of ["asc", "desc"] as const) {
        const expected = expectedOrder(unsorted, values[key], order).map((r) => r.id);
        const whole = await expectJson<ApprovalRow[]>(await get(`sort=${key}&order=${order}&limit=500`), 200);
        assert.deepEqual(whole.map((r) => r.id), expected, `sort=${key}&order=${order}`);
        const paged = await allPages<ApprovalRow>(get, `sort=${key}&order=${order}`, 8);
        assert.deepEqual(paged.map((r) => r.id), expected, `sort=${key}&order=${order}, 8 a page`);
      }
    }
    // Sorting combines with the filters: only pending requests, by amount, largest first.
    const pending = await expectJson<ApprovalRow[]>(await get("status=pending&sort=amount&order=desc"), 200);
    assert.ok(pending.length > 1 && pending.every((r) => r.status === "pending"));
    assert.deepEqual(
      pending.map((r) => r.id),
      expectedOrder(unsorted.filter((r) => r.status === "pending"), values.amount, "desc").map((r) => r.id),
    );

    const badSort = await expectJson<{ fields: Record<string, string> }>(await get("sort=payload"), 400);
    assert.ok(badSort.fields.sort, "an unknown sort key names the field");
    const badOrder = await expectJson<{ fields: Record<string, string> }>(
      await get("sort=kind&order=up"),
      400,
    );
    assert.ok(badOrder.fields.order, "an unknown order names the field");
  } finally {
    await t.close();
  }
});

interface AuditRow {
  id: string;
  seq: number;
  performedAt: string;
  performedByName: string;
  entityType: string;
  action: string;
}

Deno.test("the audit trail sorts on the server by each column, both ways, ties newest first, and pages through the sorted list", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const auditor = await createStaff(t, admin, "auditor@centralbank.test", ["auditor"]);
    const operators = [
      await createStaff(t, admin, "Yara.operator@centralbank.test", ["operator"]),
      await createStaff(t, admin, "bea.operator@centralbank.test", ["operator"]),
    ];
    for (let i = 0; i < 6; i++) {
      await expectJson(
        await t.request("POST", "/api/ledger-accounts", {
          cookie: operators[i % 2].cookie,
          body: {
            accountNumber: `SORT-${i}`,
            accountType: "ledger",
            accountName: `Sorted ${i}`,
            currency: "USD",
          },
        }),
        201,
      );
    }
    const get = (query: string) => t.request("GET", `/api/audit-trail?${query}`, { cookie: auditor.cookie });
    const unsorted = await expectJson<AuditRow[]>(await get("limit=500"), 200);
    assert.ok(unsorted.length > 15, `${unsorted.length} events`);
    assert.deepEqual(unsorted.map((e) => e.seq), [...unsorted].map((e) => e.seq).sort((a, b) => b - a));
    assert.ok(new Set(unsorted.map((e) => e.performedByName)).size >= 3, "several actors");
    assert.ok(new Set(unsorted.map((e) => e.entityType)).size >= 2, "several entity types");
    assert.ok(new Set(unsorted.map((e) => e.action)).size >= 2, "several actions");

    const values: Record<(typeof AUDIT_SORT_KEYS)[number], (row: AuditRow) => string | number> = {
      seq: (e) => e.seq,
      performedAt: (e) => e.performedAt,
      actor: (e) => e.performedByName.toLowerCase(),
      entityType: (e) => e.entityType,
      action: (e) => e.action,
    };
    for (const key of AUDIT_SORT_KEYS) {
      for (const order of ["asc", "desc"] as const) {
        const expected = expectedOrder(unsorted, values[key], order).map((e) => e.seq);
        const whole = await expectJson<AuditRow[]>(await get(`sort=${key}&order=${order}&limit=500`), 200);
        assert.deepEqual(whole.map((e) => e.seq), expected, `sort=${key}&order=${order}`);
        const paged = await allPages<AuditRow>(get, `sort=${key}&order=${order}`, 4);
        assert.deepEqual(paged.map((e) => e.seq), expected, `sort=${key}&order=${order}, 4 a page`);
      }
    }
    // Sorting combines with the filters: one operator's events, by action.
    const mine = await expectJson<AuditRow[]>(
      await get(`actor=${operators[1].id}&sort=action&order=asc`),
      200,
    );
    assert.ok(mine.length >= 3);
    assert.deepEqual(
      mine.map((e) => e.seq),
      expectedOrder(unsorted.filter((e) => e.performedByName === operators[1].email), values.action, "asc")
        .map((e) => e.seq),
    );

    const badSort = await expectJson<{ fields: Record<string, string> }>(await get("sort=changes"), 400);
    assert.ok(badSort.fields.sort, "an unknown sort key names the field");
  } finally {
    await t.close();
  }
});
