import assert from "node:assert/strict";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { approvePending, createStaff, seededStaff } from "../helpers/staff.ts";
import { ADMIN_EMAIL, createTestApp, expectJson } from "../helpers/test_app.ts";

Deno.test("the audit trail viewer filters by actor, entity, action and dates, pages on the server, and shows the chain state", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const auditor = await createStaff(t, admin, "auditor@centralbank.test", ["auditor"]);
    const operator = await createStaff(t, admin, "operator@centralbank.test", ["operator"]);
    for (let i = 0; i < 3; i++) {
      await expectJson(
        await t.request("POST", "/api/ledger-accounts", {
          cookie: operator.cookie,
          body: {
            accountNumber: `AUD-${i}`,
            accountType: "ledger",
            accountName: `Audited ${i}`,
            currency: "USD",
          },
        }),
        201,
      );
    }
    const get = (query: string) => t.request("GET", `/api/audit-trail?${query}`, { cookie: auditor.cookie });

    const created = await get(`actor=${operator.id}&entityType=ledger_account&action=create&limit=2`);
    assert.equal(created.headers.get("x-total-count"), "3");
    const page1 = await expectJson(created, 200);
    assert.equal(page1.length, 2);
    assert.equal(page1[0].performedBy, operator.id);
    assert.equal(page1[0].performedByName, "operator@centralbank.test");
    assert.equal(page1[0].changes.after.accountNumber, "AUD-2");
    assert(page1[0].seq > page1[1].seq);
    const page2 = await expectJson(
      await get(`actor=${operator.id}&entityType=ledger_account&action=create&limit=2&offset=2`),
      200,
    );
    assert.deepEqual(
      page2.map((e: { changes: { after: { accountNumber: string } } }) => e.changes.after.accountNumber),
      ["AUD-0"],
    );

    const byActor = await expectJson(await get(`actor=${encodeURIComponent("operator@")}&limit=500`), 200);
    assert(byActor.length >= 4);
    assert(byActor.every((e: { performedBy: string }) => e.performedBy === operator.id));
    const byAdmin = await expectJson(
      await get(`actor=${encodeURIComponent(ADMIN_EMAIL)}&action=create&entityType=user`),
      200,
    );
    assert.equal(byAdmin.length, 2);

    const future = new Date(Date.now() + 3_600_000).toISOString();
    assert.deepEqual(await expectJson(await get(`from=${encodeURIComponent(future)}`), 200), []);
    const badDate = await expectJson(await get("from=yesterday"), 400);
    assert(badDate.fields.from);

    const facets = await expectJson(
      await t.request("GET", "/api/audit-trail/facets", { cookie: auditor.cookie }),
      200,
    );
    assert(facets.entityTypes.includes("ledger_account"));
    assert(facets.actions.includes("create"));

    const chain = await expectJson(
      await t.request("GET", "/api/audit-trail/verification", { cookie: auditor.cookie }),
      200,
    );
    assert.equal(chain.verified, true);
    assert.equal(chain.verifiedUpToSeq, chain.checked);
    assert(chain.checked > 5);

    const refused = await expectJson(
      await t.request("GET", "/api/audit-trail", { cookie: operator.cookie }),
      403,
    );
    assert.equal(refused.message, "Only administrators or auditors can read the audit trail");
  } finally {
    await t.close();
  }
});

Deno.test("only auditors and administrators export the audit trail or the request log through Reports", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const auditor = await createStaff(t, admin, "auditor@centralbank.test", ["auditor"]);
    const operator = await createStaff(t, admin, "operator@centralbank.test", ["operator"]);
    const today = new Date().toISOString().slice(0, 10);
    const report = (cookie: string, type: string) =>
      t.request("POST", "/api/reports", { cookie, body: { type, from: today, to: today, format: "csv" } });
    const refused = await expectJson(await report(operator.cookie, "audit-trail"), 403);
    assert.equal(refused.message, "Only administrators or auditors can export the audit trail");
    await expectJson(await report(operator.cookie, "api-usage"), 403);
    const exported = await report(auditor.cookie, "audit-trail");
    assert.equal(exported.status, 200);
    const id = exported.headers.get("x-report-id");
    await exported.body?.cancel();
    await expectJson(await t.request("GET", `/api/reports/${id}/download`, { cookie: operator.cookie }), 403);
    const again = await t.request("GET", `/api/reports/${id}/download`, { cookie: admin });
    assert.equal(again.status, 200);
    await again.body?.cancel();
    const institutions = await report(operator.cookie, "institutions");
    assert.equal(institutions.status, 200);
    await institutions.body?.cancel();
  } finally {
    await t.close();
  }
});

interface SentencePartJson {
  kind: string;
  text?: string;
  label?: string;
  link?: string | null;
}
const said = (parts: SentencePartJson[]) => parts.map((part) => part.text ?? part.label).join("");

Deno.test("each event reads as a sentence with its actor and entities linked, beside the fields it always had", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const auditor = await createStaff(t, admin, "auditor@centralbank.test", ["auditor"]);
    const maker = await createStaff(t, admin, "maker@centralbank.test", ["operator"]);
    const checker = await seededStaff(t, "checker@centralbank.test", ["approver"]);
    const account = (name: string, opening?: string) =>
      t.request("POST", "/api/ledger-accounts", {
        cookie: maker.cookie,
        body: {
          accountNumber: name === "Reserve" ? "RES-1" : "LIQ-1",
          accountType: name === "Reserve" ? "ledger" : "liquid",
          accountName: name,
          currency: "USD",
          ...(opening ? { currentBalance: opening, requestReason: "Opening the reserve" } : {}),
        },
      });
    const liquid = await expectJson(await account("Liquid"), 201);
    const reserve = await approvePending(t, checker.cookie, await account("Reserve", "5000000.00"));
    const sweep = await t.request("POST", "/api/balance-sweeps", {
      cookie: maker.cookie,
      body: {
        sourceAccountId: reserve.resultEntityId,
        targetAccountId: liquid.id,
        sweepAmount: "3000000.00",
        requestReason: "Quarter-end liquidity",
      },
    });
    await approvePending(t, checker.cookie, sweep);
    const get = async (query: string) =>
      await expectJson(await t.request("GET", `/api/audit-trail?${query}`, { cookie: auditor.cookie }), 200);

    const [approval] = await get("entityType=approval_request&action=approve&limit=1");
    assert.equal(
      said(approval.sentence),
      "checker@centralbank.test approved the sweep of $3,000,000.00 from Reserve (RES-1) to Liquid (LIQ-1)",
    );
    assert.deepEqual(approval.sentence[0], {
      kind: "actor",
      label: "checker@centralbank.test",
      link: "/users",
    });
    assert.deepEqual(approval.sentence.find((part: SentencePartJson) => part.kind === "amount"), {
      kind: "amount",
      text: "$3,000,000.00",
    });
    const linked = approval.sentence.filter((part: SentencePartJson) => part.kind === "entity");
    assert.deepEqual(linked.map((part: SentencePartJson) => part.link), [
      "/approvals",
      "/balance-sweep",
      "/balance-sweep",
    ]);
    assert.equal(approval.actorLink, "/users");
    assert.equal(approval.entityLink, "/approvals");
    // The spec's fields stay as they were.
    for (
      const field of [
        "id",
        "seq",
        "entityType",
        "entityId",
        "action",
        "changes",
        "performedBy",
        "performedAt",
      ]
    ) {
      assert(field in approval, field);
    }
    assert.equal(approval.performedByName, "checker@centralbank.test");

    const [executed] = await get("entityType=balance_sweep&limit=1");
    assert.equal(
      said(executed.sentence),
      "checker@centralbank.test executed a sweep of $3,000,000.00 from Reserve (RES-1) to Liquid (LIQ-1)",
    );
    const [opening] = await get("action=opening&limit=1");
    assert.equal(
      said(opening.sentence),
      "checker@centralbank.test booked an opening balance of $5,000,000.00 on the account Reserve (RES-1)",
    );

    const [created] = await get(`entityType=ledger_account&action=create&entityId=${liquid.id}`);
    assert.equal(said(created.sentence), "maker@centralbank.test created the account Liquid (LIQ-1)");
    assert.equal(created.entityLabel, "Liquid (LIQ-1)");
    assert.equal(created.entityLink, "/balance-sweep");

    const [madeUser] = await get(`entityType=user&action=create&entityId=${maker.id}`);
    assert.equal(said(madeUser.sentence), `${ADMIN_EMAIL} created the user maker@centralbank.test`);
    assert.equal(madeUser.entityLink, "/users");

    const found = await get(`search=${encodeURIComponent("LIQ-1")}&action=create`);
    assert.deepEqual(found.map((event: { entityId: string }) => event.entityId), [liquid.id]);
  } finally {
    await t.close();
  }
});

Deno.test("an institution's status change names it and both statuses; a system row has no actor link", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const created = await expectJson(
      await req("POST", "/api/institutions", {
        body: {
          name: "First Audit Bank",
          type: "savings",
          registrationNumber: "AUDIT-SENTENCE-1",
          address: "1 Audit Lane",
          phoneNumber: "+1 202 555 0111",
          emailAddress: "ops@first-audit.example",
        },
      }),
      201,
    );
    const approver = await seededStaff(t, "approver@centralbank.test", ["approver"]);
    await approvePending(
      t,
      approver.cookie,
      await req("PATCH", `/api/institutions/${created.id}/status`, {
        body: { status: "active", reason: "Checked" },
      }),
    );
    const admin = await t.login();
    const rows = await expectJson(
      await t.request("GET", `/api/audit-trail?entityType=institution&entityId=${created.id}`, {
        cookie: admin,
      }),
      200,
    );
    const [status, creation] = rows;
    assert.match(
      said(status.sentence),
      /^approver@centralbank\.test changed the status of First Audit Bank from pending to active$/,
    );
    assert.match(said(creation.sentence), / created the institution First Audit Bank$/);
    assert.equal(status.entityLink, `/institutions/${created.id}`);
    assert.equal(status.entityLabel, "First Audit Bank");

    // A person the sentence is about carries the address beside the name: names can be shared.
    const ann = await expectJson(
      await t.request("POST", "/api/users", {
        cookie: admin,
        body: { email: "ann.lee@centralbank.test", firstName: "Ann", lastName: "Lee", roles: ["auditor"] },
      }),
      201,
    );
    const [annCreated] = await expectJson(
      await t.request("GET", `/api/audit-trail?entityType=user&action=create&entityId=${ann.user.id}`, {
        cookie: admin,
      }),
      200,
    );
    assert.equal(annCreated.entityLabel, "Ann Lee (ann.lee@centralbank.test)");
    assert.match(said(annCreated.sentence), / created the user Ann Lee \(ann\.lee@centralbank\.test\)$/);

    // The seed makes its staff as the system: no screen shows that actor.
    const [seeded] = await expectJson(
      await t.request("GET", `/api/audit-trail?entityType=user&action=create&entityId=${approver.id}`, {
        cookie: admin,
      }),
      200,
    );
    assert.equal(seeded.performedBy, SYSTEM_USER_ID);
    assert.equal(seeded.actorLink, null);
    assert.equal(seeded.sentence[0].link, null);
    assert.equal(seeded.entityLink, "/users");
  } finally {
    await t.close();
  }
});
