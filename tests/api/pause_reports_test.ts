/**
 * Paused changes at a regional node: the link notes the span while headquarters cannot be reached,
 * the node sends it once headquarters answers again (again after a failed send), and headquarters
 * records a report only from a node whose token verifies (the real check, with a real key), once.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { exportSPKI, generateKeyPair, SignJWT } from "jose";
import { sql } from "drizzle-orm";
import type { Config } from "../../src/server/config.ts";
import type { AppEnv } from "../../src/server/http/context.ts";
import { handleError } from "../../src/server/http/errors.ts";
import { NODE_TOKEN_HEADER, REGION_HEADER, trustForwardingNodes } from "../../src/server/topology/forwarding.ts";
import { HeadquartersLink } from "../../src/server/topology/headquarters_link.ts";
import { PAUSE_REPORT_PATH, pauseReportRoutes, reportPauses } from "../../src/server/topology/pause_reports.ts";
import { seededStaff } from "../helpers/staff.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";

Deno.test("a regional node sends the span its changes were paused once headquarters answers again, and again after a failed send", async () => {
  const received: { token: string | null; region: string | null; body: { from: string; to: string } }[] = [];
  let answer = 503;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    if (new URL(req.url).pathname !== PAUSE_REPORT_PATH) return new Response(null, { status: 404 });
    received.push({ token: req.headers.get(NODE_TOKEN_HEADER), region: req.headers.get(REGION_HEADER), body: await req.json() });
    return Response.json({ recorded: true }, { status: answer });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    let nowMs = Date.parse("2026-11-28T10:00:00.000Z");
    const link = new HeadquartersLink(url, () => nowMs);
    const reporter = reportPauses(link, url, { region: "north", authToken: "node-token" });
    link.succeeded(true);
    await reporter.send();
    assert.equal(received.length, 0);

    link.failed(true);
    assert.equal(link.reachable, false);
    nowMs += 3 * 60_000;
    link.succeeded(true);
    await reporter.send();
    assert.deepEqual(received.map((r) => [r.token, r.region, r.body]), [[
      "node-token",
      "north",
      { from: "2026-11-28T10:00:00.000Z", to: "2026-11-28T10:03:00.000Z" },
    ]]);
    // Headquarters did not take it: kept, and sent again after the next answer.
    assert.equal(reporter.pending().length, 1);
    answer = 201;
    link.succeeded(true);
    await reporter.send();
    assert.equal(received.length, 2);
    assert.equal(reporter.pending().length, 0);

    // A blip shorter than the reported minimum is not a pause worth telling.
    link.failed(true);
    nowMs += 1_000;
    link.succeeded(true);
    await reporter.send();
    assert.equal(received.length, 2);
  } finally {
    await server.shutdown();
  }
});

Deno.test("headquarters records a verified node's report once, as an audited event for administrators and operators", async () => {
  const t = await createTestApp();
  const dir = await Deno.makeTempDir({ prefix: "cbr-pause-" });
  try {
    const { publicKey, privateKey } = await generateKeyPair("EdDSA", { extractable: true });
    const keyFile = `${dir}/nodes.pem`;
    await Deno.writeTextFile(keyFile, await exportSPKI(publicKey));
    const token = await new SignJWT({}).setProtectedHeader({ alg: "EdDSA" }).sign(privateKey);
    const other = await generateKeyPair("EdDSA");
    const forged = await new SignJWT({}).setProtectedHeader({ alg: "EdDSA" }).sign(other.privateKey);

    const hq = new Hono<AppEnv>();
    hq.onError(handleError);
    hq.use("/api/*", await trustForwardingNodes({ replication: { nodesPublicKeyFile: keyFile } } as unknown as Config));
    hq.route("/api", pauseReportRoutes(t.deps));
    const report = (headers: Record<string, string>, body: unknown) =>
      hq.request(PAUSE_REPORT_PATH, {
        method: "POST",
        headers: { "content-type": "application/json", [REGION_HEADER]: "north", ...headers },
        body: JSON.stringify(body),
      });
    const span = { from: "2026-11-28T10:00:00.000Z", to: "2026-11-28T10:03:00.000Z" };

    await expectJson(await report({}, span), 401);
    await expectJson(await report({ [NODE_TOKEN_HEADER]: forged }, span), 401);
    const bad = await expectJson(await report({ [NODE_TOKEN_HEADER]: token }, { from: span.to, to: span.from }), 400);
    assert(bad.fields.to);
    assert.deepEqual(await expectJson(await report({ [NODE_TOKEN_HEADER]: token }, span), 201), { recorded: true });
    assert.deepEqual(await expectJson(await report({ [NODE_TOKEN_HEADER]: token }, span), 200), { recorded: false });

    const admin = await t.login();
    const operator = await seededStaff(t, "op@centralbank.test", ["operator"]);
    const approver = await seededStaff(t, "ap@centralbank.test", ["approver"]);
    for (const cookie of [admin, operator.cookie]) {
      const feed = await expectJson(await t.request("GET", "/api/notifications", { cookie }), 200);
      assert.deepEqual(feed.items.map((item: { kind: string }) => item.kind), ["changes_paused"]);
      assert.equal(
        feed.items[0].summary,
        "Changes were paused at node north from 2026-11-28T10:00:00.000Z to 2026-11-28T10:03:00.000Z " +
          "(about 3 min): it could not reach headquarters",
      );
    }
    const forApprover = await expectJson(await t.request("GET", "/api/notifications", { cookie: approver.cookie }), 200);
    assert.deepEqual(forApprover.items, []);
    const audit = await t.deps.db.read.all<{ entityId: string }>(
      sql`SELECT entity_id AS entityId FROM audit_trail WHERE action = 'changes_paused'`,
    );
    assert.deepEqual(audit, [{ entityId: "north" }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await t.close();
  }
});
