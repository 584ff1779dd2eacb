/**
 * Changes never hang, and nothing runs after its client was told no: a region's link to
 * headquarters black-holed for 20 s during a stream of keyed sweeps, and headquarters' own primary
 * frozen (SIGSTOP) under a sweep. Real processes; the links are relays on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { CHANGE_DEADLINE_MS } from "../../src/server/topology/deadline.ts";
import { HEALTH_TIMEOUT_MS } from "../../src/server/topology/headquarters_link.ts";
import { call, type Call, startCluster, within } from "./support/cluster.ts";
import { sweep as sweepOnce, sweepDesks, type SweepPair } from "./support/sweep_desks.ts";

const OPERATOR_EMAIL = "bounds-operator@hq.test";
const PAUSE_MS = 20_000;
/** What an answer may take beyond the deadline: the node's own handling, on a loaded 2-core machine. */
const ANSWER_SLACK_MS = 750;
/** Between two sweeps of the stream, as a desk submits them. */
const ATTEMPT_GAP_MS = 50;

interface Attempt {
  key: string;
  answer: Call;
}

function sweep(baseUrl: string, cookie: string, pair: SweepPair, key: string) {
  return sweepOnce({ baseUrl, cookie }, pair, "10.00", key);
}

async function balanceAt(baseUrl: string, cookie: string, id: string): Promise<string> {
  const res = await call(baseUrl, "GET", "/api/ledger-accounts", cookie);
  return res.body.find((account: { id: string }) => account.id === id).currentBalance;
}

function minor(amount: string): number {
  return Math.round(Number(amount) * 100);
}

Deno.test({
  name: "bounds: a change answers within its deadline, honestly, and never runs after its client was answered",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const cluster = await startCluster({ oneWayDelayMs: 5 });
    const [north] = cluster.regions;
    try {
      const hq = cluster.headquarters.baseUrl;
      const { operatorCookie: operator, pair, desks } = await sweepDesks(cluster, OPERATOR_EMAIL, "BOUND", "100000.00");
      const northCookie = desks[1].cookie;
      await within(5_000, async () => (await call(north.server.baseUrl, "GET", "/api/ledger-accounts", northCookie)).body
        .some((account: { id: string }) => account.id === pair.source));

      await t.step("headquarters' link black-holed for 20 s during keyed sweeps at north", async () => {
        const attempts: Attempt[] = [];
        const statuses: boolean[] = [];
        let running = true;
        const stream = (async () => {
          while (running) {
            const key = crypto.randomUUID();
            attempts.push({ key, answer: await sweep(north.server.baseUrl, northCookie, pair, key) });
            await new Promise((resolve) => setTimeout(resolve, ATTEMPT_GAP_MS));
          }
        })();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        north.headquartersLink.pause();
        const pausedAt = performance.now();
        // The status says changes are paused while they are, from the second failed health check on.
        await new Promise((resolve) => setTimeout(resolve, 2 * HEALTH_TIMEOUT_MS + 1_000));
        while (performance.now() - pausedAt < PAUSE_MS) {
          const state = await call(north.server.baseUrl, "GET", "/api/system/replication", northCookie);
          statuses.push(state.body.changesAccepted);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        north.headquartersLink.resume();
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        running = false;
        await stream;
        // Whatever the relay held is now delivered: give headquarters time to refuse it.
        await new Promise((resolve) => setTimeout(resolve, 2_000));

        assert.ok(statuses.length > 10 && statuses.every((accepted) => !accepted), JSON.stringify(statuses));
        const slowest = Math.max(...attempts.map((attempt) => attempt.answer.ms));
        console.log(`${attempts.length} sweep attempts; the slowest answer took ${Math.round(slowest)} ms`);
        assert.ok(slowest <= CHANGE_DEADLINE_MS + ANSWER_SLACK_MS, `slowest answer ${slowest} ms`);
        const done = attempts.filter((attempt) => attempt.answer.status === 201);
        const unknown = attempts.filter((attempt) => attempt.answer.body?.reason === "outcome_unknown");
        const notDone = attempts.filter((attempt) => attempt.answer.status === 503 && attempt.answer.body?.reason !== "outcome_unknown");
        assert.equal(done.length + unknown.length + notDone.length, attempts.length, JSON.stringify(attempts.map((a) => a.answer.status)));
        assert.ok(notDone.length > 0);
        for (const attempt of unknown) {
          assert.match(attempt.answer.body.message, /Idempotency-Key/);
          // The retry answers the first outcome, or executes it now: once either way.
          const retried = await sweep(north.server.baseUrl, northCookie, pair, attempt.key);
          assert.equal(retried.status, 201, JSON.stringify(retried.body));
        }
        // Every sweep answered 201 or retried moved money once; none answered "not done" moved any.
        const expected = minor("100000.00") - 1_000 * (done.length + unknown.length);
        await within(5_000, async () => minor(await balanceAt(hq, operator, pair.source)) === expected);
      });

      await t.step("a card load whose answer is lost is outcome_unknown; its retry with the same key moves money once", async () => {
        const issued = await call(north.server.baseUrl, "POST", "/api/cards/issue", northCookie, { cardholderName: "Grace Hopper" }, {
          "Idempotency-Key": crypto.randomUUID(),
        });
        assert.equal(issued.status, 201, JSON.stringify(issued.body));
        const load = { amount: "40.00", fundingSource: "settlement_source" };
        const key = { "Idempotency-Key": crypto.randomUUID() };
        // The load reaches headquarters and runs there; its answer never comes back in time.
        north.headquartersLink.pauseReplies();
        let first: Call;
        try {
          first = await call(north.server.baseUrl, "POST", `/api/cards/${issued.body.id}/load`, northCookie, load, key);
        } finally {
          north.headquartersLink.resume();
        }
        assert.equal(first.status, 503, JSON.stringify(first.body));
        assert.equal(first.body.reason, "outcome_unknown");
        assert.ok(first.ms <= CHANGE_DEADLINE_MS + ANSWER_SLACK_MS, `${first.ms} ms`);
        let retried: Call | undefined;
        await within(10_000, async () => {
          retried = await call(north.server.baseUrl, "POST", `/api/cards/${issued.body.id}/load`, northCookie, load, key);
          return retried.status === 200;
        });
        assert.equal(retried!.body.card.currentBalance, "40.00");
        const cards = await call(hq, "GET", "/api/cards", operator);
        const card = (Array.isArray(cards.body) ? cards.body : cards.body.items ?? cards.body.cards)
          .find((row: { id: string }) => row.id === issued.body.id);
        assert.equal(card.currentBalance, "40.00");
      });

      await t.step("a sweep at headquarters while its primary is frozen answers within the deadline, and does not run later", async () => {
        const key = crypto.randomUUID();
        const before = await balanceAt(hq, operator, pair.source);
        cluster.primary.process.kill("SIGSTOP");
        let answer: Call;
        try {
          answer = await sweep(hq, operator, pair, key);
        } finally {
          cluster.primary.process.kill("SIGCONT");
        }
        assert.ok(answer.ms <= CHANGE_DEADLINE_MS + ANSWER_SLACK_MS, `${answer.ms} ms`);
        assert.equal(answer.status, 503, JSON.stringify(answer.body));
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        if (answer.body.reason === "outcome_unknown") {
          assert.equal((await sweep(hq, operator, pair, key)).status, 201);
          assert.equal(minor(await balanceAt(hq, operator, pair.source)), minor(before) - 1_000);
        } else {
          assert.equal(await balanceAt(hq, operator, pair.source), before);
        }
      });
    } finally {
      await cluster.stop();
    }
  },
});
