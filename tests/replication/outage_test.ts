/**
 * Failures of the replicated topology with real processes: the primary SIGKILLed during a sweep
 * storm and started again, a regional node started while the primary is down, a regional node
 * SIGKILLed mid-write and restarted.
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { verifyAuditChain } from "../../src/server/audit/trail.ts";
import { createStaffSession, HTTP_STAFF_PASSWORD } from "../helpers/http_staff.ts";
import { openSweepPair } from "./support/sweep_desks.ts";
import { call, type Call, signIn, startCluster, within } from "./support/cluster.ts";

const PAUSED = "Changes are paused";
const RECOVERY_TIMEOUT_MS = 30_000;
/** The operator who sweeps at every node: the first administrator holds administrator alone. */
const OPERATOR_EMAIL = "operator@hq.test";

function sweep(baseUrl: string, cookie: string, pair: { source: string; target: string }, amount = "10.00") {
  return call(baseUrl, "POST", "/api/balance-sweeps", cookie, {
    sourceAccountId: pair.source,
    targetAccountId: pair.target,
    sweepAmount: amount,
  }, { "Idempotency-Key": crypto.randomUUID() });
}

/**
 * Every answer is a success, a refusal or an honest 503: paused (not done), or, for a change the
 * kill caught while committing, of unknown outcome; never another 5xx.
 */
function assertNoUnexpected(results: Call[]) {
  for (const res of results) {
    assert.ok([200, 201, 422, 503].includes(res.status), `${res.status} ${JSON.stringify(res.body)}`);
    if (res.status === 503 && res.body.reason !== "outcome_unknown") {
      assert.match(res.body.message, new RegExp(PAUSED), JSON.stringify(res.body));
    }
  }
}

Deno.test({
  name: "replication outages: the primary killed in a sweep storm, a node started without it, a node killed mid-write",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const cluster = await startCluster({ oneWayDelayMs: 5 });
    const [north, south] = cluster.regions;
    try {
      const hq = cluster.headquarters.baseUrl;
      const adminCookie = await signIn(hq);
      const hqCookie = await createStaffSession(hq, adminCookie, OPERATOR_EMAIL, ["operator"]);
      const pair = await openSweepPair(hq, hqCookie, adminCookie, "OUTAGE", "100000.00");
      const regionalCookies = await Promise.all(
        cluster.regions.map((node) => signIn(node.server.baseUrl, OPERATOR_EMAIL, HTTP_STAFF_PASSWORD)),
      );
      await within(5_000, async () =>
        (await call(north.server.baseUrl, "GET", "/api/ledger-accounts", regionalCookies[0])).body
          .some((account: { id: string }) => account.id === pair.source)
      );

      await t.step("the primary SIGKILLed in a sweep storm: reads answer, changes 503, nothing confirmed is lost", async () => {
        const results: Call[] = [];
        let storming = true;
        const storm = Promise.all(cluster.regions.flatMap((node, n) =>
          Array.from({ length: 4 }, async () => {
            while (storming) results.push(await sweep(node.server.baseUrl, regionalCookies[n], pair));
          })
        ));
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await cluster.killPrimary();
        await new Promise((resolve) => setTimeout(resolve, 2_500));

        // While the primary is down: the regional copy answers reads; every change is paused.
        for (const [n, node] of cluster.regions.entries()) {
          const reads = await call(node.server.baseUrl, "GET", "/api/ledger-accounts", regionalCookies[n]);
          assert.equal(reads.status, 200);
          const paused = await sweep(node.server.baseUrl, regionalCookies[n], pair);
          assert.equal(paused.status, 503, JSON.stringify(paused.body));
          assert.match(paused.body.message, new RegExp(PAUSED));
          const state = await call(node.server.baseUrl, "GET", "/api/system/replication", regionalCookies[n]);
          await within(5_000, async () =>
            (await call(node.server.baseUrl, "GET", "/api/system/replication", regionalCookies[n])).body
              .primaryReachable === false
          );
          assert.equal(state.status, 200);
        }
        storming = false;
        await storm;
        assertNoUnexpected(results);
        const confirmed = results.filter((res) => res.status === 201).map((res) => res.body.id as string);
        assert.ok(confirmed.length > 0, "the storm confirmed no sweep before the primary died");

        await cluster.restartPrimary();
        for (const [n, node] of cluster.regions.entries()) {
          await within(RECOVERY_TIMEOUT_MS, async () =>
            (await call(node.server.baseUrl, "GET", "/api/system/replication", regionalCookies[n])).body
              .primaryReachable === true
          );
        }
        // Changes flow again, from every node, without a restart.
        await within(RECOVERY_TIMEOUT_MS, async () => (await sweep(north.server.baseUrl, regionalCookies[0], pair)).status === 201);
        await within(RECOVERY_TIMEOUT_MS, async () => (await sweep(hq, hqCookie, pair)).status === 201);

        for (const id of confirmed) {
          const found = await call(hq, "GET", `/api/balance-sweeps/${id}`, hqCookie);
          assert.equal(found.status, 200, `confirmed sweep ${id} is missing after the restart`);
        }
        const reconciliation = await call(hq, "GET", "/api/ledger-accounts/reconciliation", hqCookie);
        assert.equal(reconciliation.body.ok, true, JSON.stringify(reconciliation.body));
        const primary = createClient({
          url: cluster.primary.url,
          authToken: (await Deno.readTextFile(`${cluster.dir}/keys/headquarters.token`)).trim(),
          intMode: "number",
        });
        try {
          const chain = await verifyAuditChain(drizzle(primary), cluster.auditChainKey);
          assert.equal(chain.ok, true, JSON.stringify(chain));
        } finally {
          primary.close();
        }
      });

      await t.step("a regional node started while the primary is down serves reads from its copy", async () => {
        await cluster.killPrimary();
        await south.restart();
        const cookie = regionalCookies[1];
        const reads = await call(south.server.baseUrl, "GET", "/api/ledger-accounts", cookie);
        assert.equal(reads.status, 200);
        assert.ok(reads.body.some((account: { id: string }) => account.id === pair.source));
        const paused = await sweep(south.server.baseUrl, cookie, pair);
        assert.equal(paused.status, 503);
        assert.match(paused.body.message, new RegExp(PAUSED));
        await cluster.restartPrimary();
        await within(RECOVERY_TIMEOUT_MS, async () => (await sweep(south.server.baseUrl, cookie, pair)).status === 201);
      });

      await t.step("a regional node SIGKILLed mid-write and restarted: no partial movement, it catches up", async () => {
        const inFlight = Array.from({ length: 12 }, () => sweep(north.server.baseUrl, regionalCookies[0], pair, "1.00"));
        await new Promise((resolve) => setTimeout(resolve, 30));
        await north.restart();
        await Promise.allSettled(inFlight);
        const reconciliation = await call(hq, "GET", "/api/ledger-accounts/reconciliation", hqCookie);
        assert.equal(reconciliation.body.ok, true, JSON.stringify(reconciliation.body));
        const later = await sweep(hq, hqCookie, pair, "2.00");
        assert.equal(later.status, 201);
        const cookie = await signIn(north.server.baseUrl, OPERATOR_EMAIL, HTTP_STAFF_PASSWORD);
        await within(5_000, async () =>
          (await call(north.server.baseUrl, "GET", `/api/balance-sweeps/${later.body.id}`, cookie)).status === 200
        );
        const atHq = await call(hq, "GET", "/api/ledger-accounts", hqCookie);
        const atNorth = await call(north.server.baseUrl, "GET", "/api/ledger-accounts", cookie);
        const balanceOf = (res: Call) => res.body.find((account: { id: string }) => account.id === pair.source).currentBalance;
        assert.equal(balanceOf(atNorth), balanceOf(atHq));
      });
    } finally {
      await cluster.stop();
    }
  },
});
