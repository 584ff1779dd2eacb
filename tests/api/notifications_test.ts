/**
 * The notification feed: who sees which event (the requester never their own request, roles by the
 * request's scope), read state that persists per user, the live stream, and the events that
 * approvals, connection tests, reconciliation and sign-in attacks publish.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { NOTIFICATION_KINDS } from "../../src/domain/notifications.ts";
import { EVENT_KINDS } from "../../src/server/events/outbox.ts";
import { publishExpiryNotices } from "../../src/server/features/approvals/expiry_notices.ts";
import { watchReconciliation } from "../../src/server/features/ledger/reconciliation_watch.ts";
import { MAX_STREAMS_PER_USER } from "../../src/server/features/notifications/stream.ts";
import { createStaff, type Staff, seededStaff, STAFF_PASSWORD } from "../helpers/staff.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import { nextAccountNumber } from "./ledger_helpers.ts";

interface Team {
  admin: string;
  maker: Staff;
  checker: Staff;
  auditor: Staff;
  /** Holds operator and approver: files requests, decides others'. */
  both: Staff;
}

async function withTeam(fn: (t: TestApp, team: Team) => Promise<void>) {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const team: Team = {
      admin,
      maker: await createStaff(t, admin, "maker@centralbank.test", ["operator"]),
      checker: await seededStaff(t, "checker@centralbank.test", ["approver"]),
      auditor: await createStaff(t, admin, "auditor@centralbank.test", ["auditor"]),
      both: await seededStaff(t, "both@centralbank.test", ["operator", "approver"]),
    };
    await fn(t, team);
  } finally {
    await t.close();
  }
}

/** Files an opening-balance request (money: decided by approvers); returns the request. */
async function fileRequest(t: TestApp, who: Staff, amount = "5000.00") {
  const pending = await expectJson(
    await t.request("POST", "/api/ledger-accounts", {
      cookie: who.cookie,
      body: {
        accountNumber: nextAccountNumber("ledger"),
        accountType: "ledger",
        accountName: "Reserve",
        currency: "USD",
        currentBalance: amount,
        requestReason: "Opening the reserve",
      },
    }),
    202,
  );
  return pending.approvalRequest as { id: string };
}

async function feed(t: TestApp, cookie: string, query = "") {
  return await expectJson(await t.request("GET", `/api/notifications${query}`, { cookie }), 200);
}

const kindsOf = (page: { items: { kind: string; subjectId: string }[] }, subjectId?: string) =>
  page.items.filter((item) => subjectId === undefined || item.subjectId === subjectId).map((item) => item.kind);

Deno.test("a request reaches the approvers who may decide it, never its requester nor other roles; the decision reaches the requester", async () => {
  await withTeam(async (t, team) => {
    const request = await fileRequest(t, team.maker);
    const forChecker = await feed(t, team.checker.cookie);
    assert.deepEqual(kindsOf(forChecker, request.id), ["approval_requested"]);
    const entry = forChecker.items[0];
    assert.equal(entry.link, "/approvals");
    assert.equal(entry.read, false);
    assert.match(entry.summary, /Opening balance of \$5,000\.00 requested by maker@centralbank\.test/);
    assert.equal(forChecker.unreadCount, 1);
    assert.deepEqual(kindsOf(await feed(t, team.both.cookie), request.id), ["approval_requested"]);
    assert.deepEqual(kindsOf(await feed(t, team.maker.cookie)), []);
    assert.deepEqual(kindsOf(await feed(t, team.auditor.cookie)), []);
    // Money is decided by approvers: the administrator is not asked.
    assert.deepEqual(kindsOf(await feed(t, team.admin)), []);

    // The one who holds the approver role too is not asked to decide their own request.
    const own = await fileRequest(t, team.both, "7000.00");
    assert.deepEqual(kindsOf(await feed(t, team.both.cookie), own.id), []);
    assert.deepEqual(kindsOf(await feed(t, team.checker.cookie), own.id), ["approval_requested"]);

    await expectJson(
      await t.request("POST", `/api/approvals/${request.id}/approve`, {
        cookie: team.checker.cookie,
        body: { reason: "Checked the figures" },
      }),
      200,
    );
    await expectJson(
      await t.request("POST", `/api/approvals/${own.id}/reject`, {
        cookie: team.checker.cookie,
        body: { reason: "Not this month" },
      }),
      200,
    );
    const forMaker = await feed(t, team.maker.cookie);
    assert.deepEqual(kindsOf(forMaker), ["approval_decided"]);
    assert.match(forMaker.items[0].summary, /^Your request \(Opening balance of \$5,000\.00\) was approved by checker/);
    const forBoth = await feed(t, team.both.cookie);
    assert.deepEqual(kindsOf(forBoth, own.id), ["approval_decided"]);
    assert.match(forBoth.items[0].summary, /was rejected by/);
    // The checker hears nothing of decisions on others' requests.
    assert.deepEqual(kindsOf(await feed(t, team.checker.cookie)), ["approval_requested", "approval_requested"]);
  });
});

Deno.test("an administration request reaches the other administrators only", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const second = await seededStaff(t, "second-admin@centralbank.test", ["administrator"]);
    // Two administrators: dual control is in force, so a new user is a request for the other one.
    const res = await t.request("POST", "/api/users", {
      cookie: admin,
      body: { email: "new-clerk@centralbank.test", roles: ["auditor"], requestReason: "New clerk" },
    });
    const pending = await expectJson(res, 202);
    assert.deepEqual(kindsOf(await feed(t, second.cookie), pending.approvalRequest.id), ["approval_requested"]);
    assert.deepEqual(kindsOf(await feed(t, admin)), []);
  } finally {
    await t.close();
  }
});

Deno.test("read state is the user's own and persists across sessions; read-all; another's event is 404", async () => {
  await withTeam(async (t, team) => {
    const first = await fileRequest(t, team.maker);
    const second = await fileRequest(t, team.maker, "6000.00");
    const before = await feed(t, team.checker.cookie);
    assert.equal(before.unreadCount, 2);
    const firstEntry = before.items.find((item: { subjectId: string }) => item.subjectId === first.id);
    await expectJson(
      await t.request("POST", `/api/notifications/${firstEntry.id}/read`, { cookie: team.checker.cookie }),
      204,
    );
    // A new session of the same user sees the same read state; the other approver's is untouched.
    const again = await t.login(team.checker.email, STAFF_PASSWORD);
    const after = await feed(t, again);
    assert.equal(after.unreadCount, 1);
    assert.deepEqual(
      after.items.map((item: { subjectId: string; read: boolean }) => [item.subjectId, item.read]),
      [[second.id, false], [first.id, true]],
    );
    assert.equal((await feed(t, team.both.cookie)).unreadCount, 2);

    // The requester may not touch an event that is not addressed to them.
    await expectJson(
      await t.request("POST", `/api/notifications/${firstEntry.id}/read`, { cookie: team.maker.cookie }),
      404,
    );
    await expectJson(
      await t.request("POST", "/api/notifications/not-an-id/read", { cookie: team.maker.cookie }),
      400,
    );

    await expectJson(await t.request("POST", "/api/notifications/read-all", { cookie: again }), 204);
    const allRead = await feed(t, team.checker.cookie);
    assert.equal(allRead.unreadCount, 0);
    assert(allRead.items.every((item: { read: boolean }) => item.read));
    // Read state is personal UI state: no audit row.
    const [audit] = await t.deps.db.read.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM audit_trail WHERE action LIKE '%read%'`,
    );
    assert.equal(audit.n, 0);
    // A later event is unread again.
    await fileRequest(t, team.maker, "6500.00");
    assert.equal((await feed(t, team.checker.cookie)).unreadCount, 1);
  });
});

Deno.test("the feed pages newest first with a limit", async () => {
  await withTeam(async (t, team) => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await fileRequest(t, team.maker, `${5000 + i}.00`)).id);
    const page1 = await feed(t, team.checker.cookie, "?limit=2");
    assert.deepEqual(page1.items.map((item: { subjectId: string }) => item.subjectId), [ids[2], ids[1]]);
    assert.equal(typeof page1.nextBefore, "number");
    const page2 = await feed(t, team.checker.cookie, `?limit=2&before=${page1.nextBefore}`);
    assert.deepEqual(page2.items.map((item: { subjectId: string }) => item.subjectId), [ids[0]]);
    assert.equal(page2.nextBefore, null);
    const bad = await expectJson(
      await t.request("GET", "/api/notifications?limit=1000", { cookie: team.checker.cookie }),
      400,
    );
    assert(bad.fields.limit);
  });
});

Deno.test("an expired request is announced to its requester once", async () => {
  await withTeam(async (t, team) => {
    const request = await fileRequest(t, team.maker);
    assert.equal(await publishExpiryNotices(t.deps.db), 0);
    await t.deps.db.transaction((tx) =>
      tx.run(sql`UPDATE approval_requests SET expires_at = ${new Date(Date.now() - 1_000).toISOString()}
        WHERE id = ${request.id}`)
    );
    assert.equal(await publishExpiryNotices(t.deps.db), 1);
    assert.equal(await publishExpiryNotices(t.deps.db), 0);
    const forMaker = await feed(t, team.maker.cookie);
    assert.deepEqual(kindsOf(forMaker, request.id), ["approval_expired"]);
    assert.match(forMaker.items[0].summary, /expired at .* without a decision/);
    assert.deepEqual(kindsOf(await feed(t, team.checker.cookie), request.id), ["approval_requested"]);
  });
});

Deno.test("a failed connection test reaches the other administrators", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const operator = await createStaff(t, admin, "op@centralbank.test", ["operator"]);
    const connection = await expectJson(
      await t.request("POST", "/api/central-bank-connections", {
        cookie: admin,
        body: {
          partnerCentralBank: "Bank of Testland",
          connectionType: "bilateral",
          messageStandard: "iso20022",
          settlementCurrency: "EUR",
          apiEndpoint: null,
        },
      }),
      201,
    );
    const other = await seededStaff(t, "other-admin@centralbank.test", ["administrator"]);
    const result = await expectJson(
      await t.request("POST", `/api/central-bank-connections/${connection.id}/test`, { cookie: admin }),
      200,
    );
    assert.equal(result.success, false);
    const forOther = await feed(t, other.cookie);
    assert.deepEqual(kindsOf(forOther, connection.id), ["connection_test_failed"]);
    assert.match(forOther.items[0].summary, /The connection test to Bank of Testland failed: No API endpoint/);
    assert.equal(forOther.items[0].link, "/central-bank-connections");
    // The tester has the answer on screen; operators do not manage connections.
    assert.deepEqual(kindsOf(await feed(t, admin)), []);
    assert.deepEqual(kindsOf(await feed(t, operator.cookie)), []);
  } finally {
    await t.close();
  }
});

Deno.test("a reconciliation difference is announced once to administrators and auditors", async () => {
  await withTeam(async (t, team) => {
    const liquid = await expectJson(
      await t.request("POST", "/api/ledger-accounts", {
        cookie: team.maker.cookie,
        body: { accountNumber: nextAccountNumber("liquid"), accountType: "liquid", accountName: "L", currency: "USD" },
      }),
      201,
    );
    assert.equal(await watchReconciliation(t.deps.db), false);
    await t.deps.db.readClient.execute({
      sql: "UPDATE ledger_accounts SET current_balance_minor = current_balance_minor + 1 WHERE id = ?",
      args: [liquid.id],
    });
    assert.equal(await watchReconciliation(t.deps.db), true);
    assert.equal(await watchReconciliation(t.deps.db), false);
    for (const cookie of [team.admin, team.auditor.cookie]) {
      const page = await feed(t, cookie);
      assert.deepEqual(kindsOf(page), ["reconciliation_difference"]);
      assert.match(page.items[0].summary, /Reconciliation found 2 differences between balances and the journal/);
    }
    assert.deepEqual(kindsOf(await feed(t, team.checker.cookie)), []);
  });
});

Deno.test("an account under attack is told to its owner alone", async () => {
  await withTeam(async (t, team) => {
    await t.deps.db.transaction((tx) =>
      tx.run(sql`INSERT INTO login_throttle (key, failures, window_started_at, locked_until)
        VALUES (${`account:${team.auditor.email}`}, 9, ${new Date(Date.now() - 60_000).toISOString()}, NULL)`)
    );
    await expectJson(
      await t.request("POST", "/api/login", { body: { email: team.auditor.email, password: "wrong-guess-x" } }),
      401,
    );
    const page = await feed(t, team.auditor.cookie);
    assert.deepEqual(kindsOf(page), ["account_under_attack"]);
    assert.match(page.items[0].summary, /Your account is under attack: 10 wrong passwords/);
    assert.deepEqual(kindsOf(await feed(t, team.admin)), []);
  });
});

/** Reads server-sent events from a response body; `next` resolves with the next event of `name`. */
function sseReader(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async next(name: string): Promise<{ event: string; data: any }> {
      while (true) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === name && data !== undefined) return { event, data: JSON.parse(data) };
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended");
        buffer += value;
      }
    },
    cancel: () => reader.cancel(),
  };
}

const openStream = (t: TestApp, cookie: string) =>
  t.request("GET", "/api/notifications/stream", { cookie, headers: { accept: "text/event-stream" } });

Deno.test("the live stream brings a new request to the approver within a second", async () => {
  await withTeam(async (t, team) => {
    const res = await openStream(t, team.checker.cookie);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
    const stream = sseReader(res);
    try {
      assert.equal((await stream.next("unread")).data.unreadCount, 0);
      const request = await fileRequest(t, team.maker);
      const filedAt = performance.now();
      const { data } = await stream.next("notification");
      const latencyMs = performance.now() - filedAt;
      assert(latencyMs < 1_000, `the event took ${latencyMs} ms`);
      assert.equal(data.kind, "approval_requested");
      assert.equal(data.subjectId, request.id);
      assert.equal((await stream.next("unread")).data.unreadCount, 1);
    } finally {
      await stream.cancel();
    }
  });
});

Deno.test("the live stream ends with the session, needs an event-stream client, and is bounded per user", async () => {
  await withTeam(async (t, team) => {
    const plain = await t.request("GET", "/api/notifications/stream", { cookie: team.checker.cookie });
    assert.equal(plain.status, 400);
    await plain.body?.cancel();

    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) {
      const res = await openStream(t, team.checker.cookie);
      assert.equal(res.status, 200);
      streams.push(sseReader(res));
    }
    const over = await openStream(t, team.checker.cookie);
    assert.equal(over.status, 429);
    await over.body?.cancel();
    // One closed by its client frees its place.
    await streams.pop()!.cancel();
    await new Promise((resolve) => setTimeout(resolve, 600));
    const again = await openStream(t, team.checker.cookie);
    assert.equal(again.status, 200);
    streams.push(sseReader(again));

    // Signing out ends every stream of that session.
    const signOut = await t.request("POST", "/api/logout", { cookie: team.checker.cookie });
    assert.equal(signOut.status, 303);
    await signOut.body?.cancel();
    const ended = await streams[0].next("end");
    assert.equal(ended.data.reason, "session_ended");
    for (const stream of streams) await stream.cancel();
  });
});

Deno.test("every kind offered for e-mail is a kind of the outbox", () => {
  for (const kind of NOTIFICATION_KINDS) assert((EVENT_KINDS as readonly string[]).includes(kind), kind);
});
