/**
 * Crash safety: the server is killed with SIGKILL in the middle of a storm of sweeps, card loads
 * and registrations, three times, and restarted on the same data dir each time. Afterwards every
 * invariant holds and every record the server acknowledged is there.
 */
import assert from "node:assert/strict";
import { startServer, type TestServer } from "../e2e/helpers.ts";
import { checkDatabase } from "./support/check.ts";
import { createStormAccounts, runStorm, signIn, type StormResult, stormStaff } from "./support/storm.ts";

const CRASH_CYCLES = 3;
const STORM_WORKERS = 16;
const MIN_STORM_MS = 700;
const MAX_STORM_MS = 2_500;
/** Scheduled sweeps every second, so a kill can also land in the middle of a scheduled run. */
const SERVER_ENV = { SWEEP_SCHEDULE: "* * * * * *" };

Deno.test({
  name:
    "SIGKILL during a storm of sweeps, card loads and registrations loses nothing acknowledged and breaks no invariant",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "cbr-faults-crash-" });
    let server: TestServer | null = null;
    try {
      server = await startServer(SERVER_ENV, dataDir);
      // The staff's sessions are rows of the database: they hold across every kill and restart.
      const staff = await stormStaff(server.baseUrl, await signIn(server.baseUrl));
      const accounts = await createStormAccounts(server.baseUrl, staff, "crash");
      const acked: StormResult["acked"] = {
        sweeps: [],
        institutions: [],
        cards: [],
        cardLoads: 0,
        reports: [],
      };
      const summary: string[] = [];
      for (let cycle = 1; cycle <= CRASH_CYCLES; cycle++) {
        let killed = false;
        const storm = runStorm({
          baseUrl: server.baseUrl,
          staff,
          accounts,
          workers: STORM_WORKERS,
          maxOperations: Number.MAX_SAFE_INTEGER,
          stop: () => killed,
          tag: `crash${cycle}`,
        });
        await new Promise((resolve) =>
          setTimeout(resolve, MIN_STORM_MS + Math.random() * (MAX_STORM_MS - MIN_STORM_MS))
        );
        await server.kill();
        killed = true;
        const result = await storm;
        acked.sweeps.push(...result.acked.sweeps);
        acked.institutions.push(...result.acked.institutions);
        acked.cards.push(...result.acked.cards);
        acked.cardLoads += result.acked.cardLoads;
        acked.reports!.push(...(result.acked.reports ?? []));
        summary.push(
          `cycle ${cycle}: ${
            JSON.stringify(result.byOperation)
          }; ${result.networkErrors} cut off by the kill`,
        );
        assert.deepEqual(result.serverErrors, [], `5xx before the kill in cycle ${cycle}`);
        assert(Object.keys(result.byOperation).length > 0, "the storm ran no operation");

        server = await startServer(SERVER_ENV, dataDir);
        const report = await checkDatabase(server.databaseUrl, acked, dataDir);
        assert.deepEqual(report.violations, [], `after crash ${cycle}: ${JSON.stringify(report.counts)}`);
      }
      console.log(summary.join("\n"));
      const final = await checkDatabase(server.databaseUrl, acked, dataDir);
      console.log(
        `after ${CRASH_CYCLES} crashes: ${
          JSON.stringify(final.counts)
        }; acknowledged ${acked.sweeps.length} sweeps, ` +
          `${acked.institutions.length} institutions, ${acked.cards.length} cards, ${acked.cardLoads} card loads`,
      );
      if (final.observations.length > 0) console.log(`observations:\n  ${final.observations.join("\n  ")}`);
      assert.deepEqual(final.violations, []);
    } finally {
      await server?.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
