/**
 * One clock for sessions and windows (src/server/topology/clock.ts): how a replicated node's clock
 * follows the primary's, and that sessions, key windows and the node's status go by the app's clock
 * rather than the node's own. The same with real processes, a regional node under libfaketime, is
 * tests/replication/clock_test.ts.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { CLOCK_SKEW_WARN_MS } from "../../src/domain/clock_offset.ts";
import { utcDayKey } from "../../src/domain/movement_limits.ts";
import { RATE_LIMIT_WINDOW_MS } from "../../src/domain/public_api.ts";
import { type Clock, localClock, PrimaryClock, readPrimaryTime } from "../../src/server/topology/clock.ts";
import { DEFAULT_SESSION_IDLE_MINUTES } from "../../src/server/config.ts";
import { createStaff } from "../helpers/staff.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";
import { createKey, withKey } from "./api_access_helpers.ts";

const TWO_MINUTES_MS = 120_000;

/** A node's wall and monotonic clocks, and a primary `aheadMs` behind the node, over a network. */
function simulatedNode(aheadMs: number) {
  const node = { wallMs: Date.UTC(2030, 0, 15, 9, 30), monoMs: 5_000 };
  const advance = (ms: number) => {
    node.wallMs += ms;
    node.monoMs += ms;
  };
  let questions = 0;
  /** The primary answers after `outMs`, and its answer takes `backMs` to come back. */
  const primaryOver = (outMs: number, backMs: number) => () => {
    questions++;
    advance(outMs);
    const answer = node.wallMs - aheadMs;
    advance(backMs);
    return Promise.resolve(answer);
  };
  const options = { wallMs: () => node.wallMs, monoMs: () => node.monoMs };
  return { node, advance, primaryOver, options, questions: () => questions };
}

Deno.test("before the primary first answers, a replicated node's clock is its own; then the primary's", async () => {
  const sim = simulatedNode(TWO_MINUTES_MS);
  const clock = new PrimaryClock(sim.primaryOver(4, 4), sim.options);
  assert.equal(clock.now(), sim.node.wallMs);
  assert.equal(clock.offsetMs(), null);
  assert.deepEqual(clock.status(), { offsetMs: null, warning: null });

  assert.equal(await clock.measure(), true);
  assert.equal(clock.offsetMs(), TWO_MINUTES_MS);
  assert.equal(clock.now(), sim.node.wallMs - TWO_MINUTES_MS);
  assert.match(clock.status().warning!, /^This node's clock is 2 min ahead of the primary's/);

  // Between questions the primary's time runs on by the node's monotonic clock.
  sim.advance(61_000.5);
  assert.equal(clock.preciseNow(), sim.node.wallMs - TWO_MINUTES_MS);
  assert.equal(clock.now(), Math.floor(sim.node.wallMs - TWO_MINUTES_MS));
});

Deno.test("a step of the node's wall clock moves its reported offset at once, never the time it keeps", async () => {
  const sim = simulatedNode(0);
  const clock = new PrimaryClock(sim.primaryOver(3, 3), sim.options);
  await clock.measure();
  assert.equal(clock.offsetMs(), 0);
  assert.equal(clock.status().warning, null);
  const before = clock.now();
  sim.node.wallMs += 30_000;
  assert.equal(clock.now(), before);
  assert.equal(clock.offsetMs(), 30_000);
  assert.match(clock.status().warning!, /30 s ahead/);
});

Deno.test("a slow, lopsided answer does not displace a quick one: the shortest round trip is trusted", async () => {
  const sim = simulatedNode(TWO_MINUTES_MS);
  let reader = sim.primaryOver(5, 5);
  const clock = new PrimaryClock(() => reader(), { ...sim.options, kept: 4 });
  await clock.measure();
  reader = sim.primaryOver(900, 10);
  await clock.measure();
  assert.equal(clock.offsetMs(), TWO_MINUTES_MS, "still the quick answer's exact offset");
  // Kept for four questions only: after that, the best of what is recent.
  for (let i = 0; i < 3; i++) await clock.measure();
  assert.equal(clock.offsetMs(), TWO_MINUTES_MS - (900 - 10) / 2, "off by less than half the round trip");
});

Deno.test("once on the primary's time the clock never runs backwards, though a better answer puts it back", async () => {
  const sim = simulatedNode(TWO_MINUTES_MS);
  const primaryNow = () => sim.node.wallMs - TWO_MINUTES_MS;
  let reader = sim.primaryOver(900, 10);
  const clock = new PrimaryClock(() => reader(), sim.options);
  await clock.measure();
  const held = clock.preciseNow();
  assert.equal(held, primaryNow() + 445, "a lopsided answer reads the primary ahead");
  reader = sim.primaryOver(1, 1);
  await clock.measure();
  assert.equal(clock.preciseNow(), held, "held still rather than put back");
  sim.advance(500);
  assert.equal(clock.preciseNow(), primaryNow(), "and on the primary's time again once it has caught up");
});

Deno.test("a question the primary does not answer in time, or refuses, leaves the clock as it was", async () => {
  const sim = simulatedNode(TWO_MINUTES_MS);
  let reader: () => Promise<number> = sim.primaryOver(2, 2);
  const clock = new PrimaryClock(() => reader(), { ...sim.options, timeoutMs: 30 });
  await clock.measure();
  const offset = clock.offsetMs();

  reader = () => new Promise<number>(() => {});
  const started = performance.now();
  assert.equal(await clock.measure(), false);
  assert.ok(performance.now() - started < 1_000, "the wait is bounded by the timeout");
  reader = () => Promise.reject(new Error("connection refused"));
  assert.equal(await clock.measure(), false);
  assert.equal(clock.offsetMs(), offset);
});

Deno.test("questions asked together share one; start() asks once, then on its interval until stopped", async () => {
  const sim = simulatedNode(0);
  const clock = new PrimaryClock(sim.primaryOver(1, 1), { ...sim.options, intervalMs: 10 });
  await Promise.all([clock.measure(), clock.measure(), clock.measure()]);
  assert.equal(sim.questions(), 1);

  await clock.start();
  assert.equal(sim.questions(), 2, "start() waits for its first question");
  await new Promise((resolve) => setTimeout(resolve, 80));
  clock.stop();
  const asked = sim.questions();
  assert.ok(asked > 3, `asked ${asked} times in 80 ms at a 10 ms interval`);
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.equal(sim.questions(), asked, "no question after stop()");
  assert.equal(await clock.measure(), false);
});

Deno.test("the primary's time is read as whole milliseconds by one statement", async () => {
  const statements: string[] = [];
  const client = {
    execute: (statement: unknown) => {
      statements.push(String(statement));
      return Promise.resolve({ rows: [{ nowMs: 1_895_000_000_123 }] });
    },
  };
  assert.equal(await readPrimaryTime(client as never), 1_895_000_000_123);
  assert.deepEqual(statements, ["SELECT CAST(unixepoch('subsec') * 1000 AS INTEGER) AS nowMs"]);
  const silent = { execute: () => Promise.resolve({ rows: [] }) };
  await assert.rejects(readPrimaryTime(silent as never), /answered no time/);

  // The same statement on this SQLite, which has 'subsec' as sqld's (3.45) does.
  const t = await createTestApp();
  try {
    const primaryMs = await readPrimaryTime(t.deps.db.readClient);
    assert.ok(Number.isInteger(primaryMs) && Math.abs(primaryMs - Date.now()) < 1_000, String(primaryMs));
  } finally {
    await t.close();
  }
});

/** An app clock `shiftMs` away from the node's own, which the test moves. */
function shiftedClock(shiftMs: number): Clock & { shiftMs: number } {
  const clock = {
    shiftMs,
    now: () => Date.now() + clock.shiftMs,
    preciseNow: () => Date.now() + clock.shiftMs,
    offsetMs: () => -clock.shiftMs,
    status: () => ({ offsetMs: -clock.shiftMs, warning: null }),
    stop: () => {},
  };
  return clock;
}

Deno.test("a standalone node's status has no clock offset and no warning", async () => {
  const t = await createTestApp();
  try {
    assert.equal(t.deps.clock.offsetMs(), null);
    const state = await expectJson(
      await t.request("GET", "/api/system/replication", { cookie: await t.login() }),
      200,
    );
    assert.equal(state.clockOffsetMs, null);
    assert.equal(state.clockWarning, null);
    const own = localClock();
    assert.ok(Math.abs(own.now() - Date.now()) <= 1);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/system/replication reports the clock's offset and its warning", async () => {
  const sim = simulatedNode(TWO_MINUTES_MS);
  const clock = new PrimaryClock(sim.primaryOver(1, 1), sim.options);
  await clock.measure();
  const t = await createTestApp({}, { clock });
  try {
    const state = await expectJson(
      await t.request("GET", "/api/system/replication", { cookie: await t.login() }),
      200,
    );
    assert.equal(state.clockOffsetMs, TWO_MINUTES_MS);
    assert.ok(state.clockOffsetMs > CLOCK_SKEW_WARN_MS);
    assert.match(
      state.clockWarning,
      /^This node's clock is 2 min ahead of the primary's \(more than 5 s apart\)\./,
    );
  } finally {
    await t.close();
  }
});

Deno.test("sessions expire by the app's clock: written and checked on its time, not the node's", async () => {
  // The node runs two minutes fast: the app's (the primary's) time is two minutes behind its own.
  const clock = shiftedClock(-TWO_MINUTES_MS);
  const t = await createTestApp({}, { clock });
  try {
    const cookie = await t.login();
    const signedInMs = clock.now();
    const [row] = await t.deps.db.read.all<{ expire: string }>(sql`SELECT expire FROM sessions`);
    const idleMs = DEFAULT_SESSION_IDLE_MINUTES * 60_000;
    assert.ok(Math.abs(Date.parse(row.expire) - (signedInMs + idleMs)) < 2_000, row.expire);
    const expiry = await expectJson(await t.request("GET", "/api/auth/session", { cookie }), 200);
    assert.ok(Math.abs(Date.parse(expiry.expiresAt) - (signedInMs + idleMs)) < 2_000, expiry.expiresAt);

    // A minute on, activity writes the sliding expiry from the app's time too.
    clock.shiftMs += 61_000;
    await expectJson(await t.request("GET", "/api/auth/user", { cookie }), 200);
    const touchedMs = clock.now();
    const [touched] = await t.deps.db.read.all<{ expire: string }>(sql`SELECT expire FROM sessions`);
    assert.ok(Math.abs(Date.parse(touched.expire) - (touchedMs + idleMs)) < 2_000, touched.expire);

    // Past the idle limit on the app's clock, though the node's own has hardly moved: refused.
    clock.shiftMs += idleMs + 1_000;
    assert.equal((await t.request("GET", "/api/auth/user", { cookie })).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("a key's hourly window is the app clock's hour, and RateLimit-Reset counts down to its end", async () => {
  // The app's clock 10 s before the top of an hour, wherever the node's own is.
  const nowMs = Date.now();
  const topMs = Math.ceil(nowMs / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS + RATE_LIMIT_WINDOW_MS;
  const clock = shiftedClock(topMs - 10_000 - nowMs);
  const t = await createTestApp({}, { clock });
  try {
    const call = withKey(t, (await createKey(t, await t.login())).key);
    const first = await call("GET", "/api/institutions");
    await expectJson(first, 200);
    assert.equal(first.headers.get("ratelimit-remaining"), "99");
    const reset = Number(first.headers.get("ratelimit-reset"));
    assert.ok(
      reset >= 8 && reset <= 11,
      `RateLimit-Reset ${reset}: the seconds left of the app clock's hour`,
    );
    await expectJson(await call("GET", "/api/institutions"), 200);

    clock.shiftMs += 11_000;
    const next = await call("GET", "/api/institutions");
    await expectJson(next, 200);
    assert.equal(next.headers.get("ratelimit-remaining"), "99", "a new hour on the app's clock, a new count");
    const nextReset = Number(next.headers.get("ratelimit-reset"));
    assert.ok(nextReset > RATE_LIMIT_WINDOW_MS / 1000 - 5, `RateLimit-Reset ${nextReset}`);
  } finally {
    await t.close();
  }
});

Deno.test("a maker's movements count toward the app clock's UTC day, not the node's", async () => {
  const clock = shiftedClock(36 * 3_600_000);
  const t = await createTestApp({}, { clock });
  try {
    const maker = await createStaff(t, await t.login(), "clock-maker@centralbank.test", ["operator"]);
    await expectJson(
      await t.as(maker.cookie)("POST", "/api/cards/issue", {
        body: { cardholderName: "Ada Lovelace", initialBalance: "100.00" },
      }),
      201,
    );
    const rows = await t.deps.db.read.all<{ day: string }>(sql`SELECT day FROM maker_daily_totals`);
    assert.deepEqual(rows.map((row) => row.day), [utcDayKey(new Date(clock.now()))]);
    assert.notEqual(rows[0].day, utcDayKey(new Date()));
  } finally {
    await t.close();
  }
});
