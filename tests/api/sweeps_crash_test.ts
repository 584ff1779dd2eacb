import assert from "node:assert/strict";
import { startServer } from "../e2e/helpers.ts";
import {
  call,
  checkStoreInvariants,
  createStormAccounts,
  newStormResult,
  runStorm,
  signInClient,
} from "./sweep_storm.ts";

const CLIENTS = 20;
/** More than the storm can send before the kill; the workers stop at the dead socket. */
const STORM_REQUESTS = 5_000;
const ACKNOWLEDGED_BEFORE_KILL = 200;
const KILL_DEADLINE_MS = 20_000;
const AFTER_RESTART_REQUESTS = 200;
const ALLOWED_STATUSES = new Set([200, 201, 202, 422]);

Deno.test({
  name:
    "SIGKILL in the middle of a sweep storm leaves no partial sweep, keeps acknowledged sweeps and every invariant",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "cbr-sweep-crash-" });
    const seed = Number(Deno.env.get("STORM_SEED") ?? Date.now() % 2 ** 31);
    let server = await startServer({}, dataDir);
    try {
      const client = await signInClient(server.baseUrl);
      const accounts = await createStormAccounts(client, "CRASH");

      const before = newStormResult();
      const storm = runStorm(client, accounts, { requests: STORM_REQUESTS, clients: CLIENTS, seed }, before);
      const deadline = Date.now() + KILL_DEADLINE_MS;
      while (before.acknowledgedSweepIds.size < ACKNOWLEDGED_BEFORE_KILL && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await server.kill();
      await storm;
      const summary = `seed ${seed}: ${JSON.stringify(Object.fromEntries(before.statuses))}`;
      console.log(
        `killed after ${before.requestsSent} requests, ${before.acknowledgedSweepIds.size} sweeps acknowledged, ${before.unansweredKeyed.length} keyed requests unanswered (${summary})`,
      );
      assert.ok(before.acknowledgedSweepIds.size >= ACKNOWLEDGED_BEFORE_KILL, `storm too slow: ${summary}`);
      assert.ok(before.networkErrors > 0, "the kill did not interrupt the storm");
      for (const status of before.statuses.keys()) {
        assert.ok(ALLOWED_STATUSES.has(status), `HTTP ${status}: ${summary}`);
      }

      // The database as the killed process left it: no partial sweep, nothing acknowledged lost.
      const afterCrash = await checkStoreInvariants(server.databaseUrl);
      for (const id of before.acknowledgedSweepIds) {
        assert.ok(afterCrash.sweepIds.has(id), `acknowledged sweep ${id} lost`);
      }

      server = await startServer({}, dataDir);
      // The same operator's sessions, kept in the database across the restart: keys are the maker's.
      const again = { ...client, baseUrl: server.baseUrl };
      // Retrying an unanswered keyed request either replays its committed result or runs it now: once.
      let executedOnRetry = 0;
      for (const { key, body } of before.unansweredKeyed) {
        const res = await fetch(`${server.baseUrl}/api/balance-sweeps`, {
          method: "POST",
          headers: { cookie: again.cookie, "content-type": "application/json", "Idempotency-Key": key },
          body: JSON.stringify(body),
        });
        await res.body?.cancel();
        assert.ok([201, 422].includes(res.status), `retry of ${key} answered ${res.status}`);
        if (res.status === 201 && res.headers.get("Idempotent-Replayed") !== "true") executedOnRetry += 1;
      }
      const report = await call(again, "GET", "/api/ledger-accounts/reconciliation");
      assert.equal(report.json.ok, true, JSON.stringify(report.json.problems));

      const after = await runStorm(again, accounts, {
        requests: AFTER_RESTART_REQUESTS,
        clients: CLIENTS,
        seed: seed + 1,
      });
      assert.equal(after.networkErrors, 0);
      for (const status of after.statuses.keys()) {
        assert.ok(ALLOWED_STATUSES.has(status), `HTTP ${status} after restart`);
      }

      await server.stop();
      const final = await checkStoreInvariants(server.databaseUrl);
      assert.equal(
        final.sweeps,
        afterCrash.sweeps + executedOnRetry + after.manualCreated + after.autoSweepsReported,
        "sweeps after the restart are exactly the retried and the newly acknowledged ones",
      );
      for (const id of after.acknowledgedSweepIds) assert.ok(final.sweepIds.has(id));
    } catch (error) {
      console.error(server.output().slice(-4000));
      throw error;
    } finally {
      await server.stop();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
