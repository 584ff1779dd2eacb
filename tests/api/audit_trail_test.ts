import assert from "node:assert/strict";
import { createStaff } from "../helpers/staff.ts";
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
