import assert from "node:assert/strict";
import { createStaff } from "../helpers/staff.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";

Deno.test("under dual control a change of the sign-in settings, given with its reason, is a request for a second administrator", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const second = await createStaff(t, admin, "second.admin@centralbank.test", ["administrator"]);
    const put = (body: unknown) => t.request("PUT", "/api/auth/sign-in-settings", { cookie: admin, body });

    const missing = await expectJson(await put({ mfaRequired: false }), 400);
    assert.ok(missing.fields.requestReason);
    const pending = await expectJson(
      await put({ mfaRequired: false, requestReason: "Pilot without tokens" }),
      202,
    );
    assert.equal(pending.status, "pending_approval");
    assert.equal(pending.approvalRequest.kind, "sign_in_settings");
    assert.deepEqual(pending.approvalRequest.summary, { mfaRequired: false });
    await expectJson(await put({ mfaRequired: false, requestReason: "x", extra: 1 }), 400);
    assert.equal(
      (await expectJson(await t.request("GET", "/api/auth/sign-in-settings", { cookie: admin }), 200))
        .mfaRequired,
      true,
    );

    await expectJson(
      await t.request("POST", `/api/approvals/${pending.approvalRequest.id}/approve`, {
        cookie: second.cookie,
        body: { reason: "Agreed" },
      }),
      200,
    );
    assert.equal(
      (await expectJson(await t.request("GET", "/api/auth/sign-in-settings", { cookie: admin }), 200))
        .mfaRequired,
      false,
    );
  } finally {
    await t.close();
  }
});
