import assert from "node:assert/strict";
import { startServer } from "../e2e/helpers.ts";
import { checkStoreInvariants, createStormAccounts, runStorm, signInClient } from "./sweep_storm.ts";

const CLIENTS = 20;
const REQUESTS = 1_000;
const ALLOWED_STATUSES = new Set([200, 201, 202, 422]);

Deno.test({
  name:
    "20 concurrent clients firing 1,000 random sweeps and auto-sweeps at a real server keep every money invariant",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "cbr-sweep-storm-" });
    const server = await startServer({}, dataDir);
    const seed = Number(Deno.env.get("STORM_SEED") ?? Date.now() % 2 ** 31);
    try {
      const client = await signInClient(server.baseUrl);
      const accounts = await createStormAccounts(client, "STORM");
      const result = await runStorm(client, accounts, { requests: REQUESTS, clients: CLIENTS, seed });
      const summary = `seed ${seed}: ${JSON.stringify(Object.fromEntries(result.statuses))}`;
      console.log(`sweep storm ${summary}, ${result.acknowledgedSweepIds.size} sweeps acknowledged`);
      assert.equal(result.networkErrors, 0, summary);
      assert.equal(result.requestsSent, REQUESTS);
      for (const status of result.statuses.keys()) {
        assert.ok(ALLOWED_STATUSES.has(status), `HTTP ${status}: ${summary}`);
      }
      assert.ok(
        (result.statuses.get(201) ?? 0) > 100,
        `too few sweeps succeeded to prove anything: ${summary}`,
      );
      assert.ok(result.autoSweepsReported > 0, `no auto-sweep moved money: ${summary}`);

      await server.stop();
      const store = await checkStoreInvariants(server.databaseUrl);
      // Every acknowledged sweep is recorded, and nothing beyond them: idempotent retries added none.
      assert.equal(store.sweeps, result.manualCreated + result.autoSweepsReported, summary);
      for (const id of result.acknowledgedSweepIds) {
        assert.ok(store.sweepIds.has(id), `acknowledged sweep ${id} missing`);
      }
    } catch (error) {
      console.error(server.output().slice(-4000));
      throw error;
    } finally {
      await server.stop();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
