/**
 * sqld compacts its replication log (by default every 200 MB, about 48,500 frames); while it does,
 * replicas' syncs are held back for seconds. That is not an outage: a sweep run past 50,000 frames,
 * with the log compacted every few thousand frames, never shows a node reporting the primary
 * unreachable or changes paused, and every sweep succeeds.
 */
import assert from "node:assert/strict";
import { createStaffSession } from "../helpers/http_staff.ts";
import { call, signIn, startCluster } from "./support/cluster.ts";
import { openSweepPair, sweep } from "./support/sweep_desks.ts";

const FRAMES_TO_PASS = 50_000;
/** Small, so that the run crosses many compactions (sqld's default is 200 MB). */
const MAX_LOG_SIZE_MB = 16;
const PARALLEL_SWEEPS = 4;
/** A bound on the run, whatever the machine's speed. */
const RUN_LIMIT_MS = 240_000;
const STATUS_EVERY_MS = 200;

Deno.test({
  name: "compaction: a sweep run past 50,000 frames shows no reachability flap",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const cluster = await startCluster({ maxLogSizeMb: MAX_LOG_SIZE_MB });
    try {
      const hq = cluster.headquarters.baseUrl;
      const adminCookie = await signIn(hq);
      const operator = await createStaffSession(hq, adminCookie, "compaction-operator@hq.test", ["operator"]);
      const pair = await openSweepPair(hq, operator, adminCookie, "COMPACT", "900000.00");
      const nodes = [hq, ...cluster.regions.map((node) => node.server.baseUrl)];
      const status = () => call(hq, "GET", "/api/system/replication", adminCookie);
      const startFrame = (await status()).body.frameNo as number;

      const flaps: string[] = [];
      let lastFrame = startFrame;
      let running = true;
      const watch = (async () => {
        while (running) {
          for (const node of nodes) {
            const state = await call(node, "GET", "/api/system/replication", adminCookie);
            if (state.status !== 200 || !state.body.primaryReachable || !state.body.changesAccepted) {
              flaps.push(`${node}: ${state.status} ${JSON.stringify(state.body)}`);
            }
            if (node === hq && state.body.frameNo) lastFrame = state.body.frameNo;
          }
          await new Promise((resolve) => setTimeout(resolve, STATUS_EVERY_MS));
        }
      })();
      const failures: string[] = [];
      let sweeps = 0;
      const started = performance.now();
      await Promise.all(Array.from({ length: PARALLEL_SWEEPS }, async () => {
        while (lastFrame - startFrame < FRAMES_TO_PASS && performance.now() - started < RUN_LIMIT_MS) {
          const res = await sweep({ baseUrl: hq, cookie: operator }, pair, "0.01");
          if (res.status === 201) sweeps++;
          else failures.push(`${res.status} ${JSON.stringify(res.body)}`);
        }
      }));
      running = false;
      await watch;
      // Each compaction leaves a snapshot of the frames it compacted.
      const snapshots = await Array.fromAsync(Deno.readDir(`${cluster.primaryDbPath}/dbs/default/snapshots`));
      console.log(
        `${sweeps} sweeps, frames ${startFrame} → ${lastFrame} in ${Math.round((performance.now() - started) / 1000)} s; ` +
          `${snapshots.length} compactions`,
      );
      assert.ok(snapshots.length >= 2, `${snapshots.length} compactions`);
      assert.ok(lastFrame - startFrame >= FRAMES_TO_PASS, `only ${lastFrame - startFrame} frames in ${RUN_LIMIT_MS} ms`);
      assert.deepEqual(failures.slice(0, 5), []);
      assert.deepEqual(flaps.slice(0, 5), []);
    } finally {
      await cluster.stop();
    }
  },
});
