/**
 * The sign-in back-off's bound, on a fake clock: a guesser sending a wrong password every 250 ms
 * (from another address, or from the owner's own) while the owner signs in from a new browser, and
 * the guessing bound whatever the guesser sends. Also the second factor's limits and the attack alert.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  ACCOUNT_BACKOFF,
  ADDRESS_BACKOFF,
  afterRightPassword,
  type BackoffState,
  currentFailures,
  decideAttempt,
  retryAfterSeconds,
  TICKET_INTERVAL_MS,
  TICKET_LIFETIME_MS,
  type WaitTicket,
} from "../../src/domain/sign_in_throttle.ts";
import {
  codeVerdict,
  PARALLEL_CODE_RETRY_MS,
  signInEndsAfter,
  WRONG_CODE_WINDOW_MS,
} from "../../src/domain/second_factor_limits.ts";
import { dashboardAlerts } from "../../src/domain/dashboard.ts";

const ruleOf = (key: string) => key.startsWith("address:") ? ADDRESS_BACKOFF : ACCOUNT_BACKOFF;

/** The server's side of the rule: the keys' states, and every attempt let through (judged). */
class FakeServer {
  readonly states = new Map<string, BackoffState>();
  readonly judged: { key: string; atMs: number; failuresBefore: number }[] = [];

  /** One attempt: let through (and judged right or wrong at once), or refused with what the browser is told. */
  attempt(keys: string[], ticket: WaitTicket | null, nowMs: number, rightPassword: boolean) {
    const decision = decideAttempt(
      keys.map((key) => ({ rule: ruleOf(key), state: this.states.get(key) ?? null })),
      ticket,
      nowMs,
    );
    if (!decision.allowed) {
      const held = decision.newTicketFromMs === null ? ticket : { validFromMs: decision.newTicketFromMs };
      return { allowed: false as const, untilMs: decision.untilMs, ticket: held };
    }
    keys.forEach((key, i) => {
      const before = currentFailures(ruleOf(key), this.states.get(key) ?? null, nowMs);
      this.judged.push({ key, atMs: nowMs, failuresBefore: before });
      const state = decision.states[i];
      this.states.set(key, rightPassword ? afterRightPassword(ruleOf(key), state, nowMs) : state);
    });
    return { allowed: true as const };
  }
}

interface Scenario {
  /** When the guesser's first request arrives (its later ones every 250 ms), and how many it sends at once. */
  phaseMs: number;
  burst: number;
  /** When the owner first tries, and how long its requests take to arrive after it decides to send them. */
  ownerArrivesMs: number;
  latencyMs: number;
  sameAddress: boolean;
  /** Whether the owner's browser keeps the cookies it is given (a browser does). */
  keepsTicket: boolean;
}

/** Runs the guesser and the owner on one clock until the owner is in (or has tried five times). */
function signInUnderAttack(scenario: Scenario) {
  const server = new FakeServer();
  const ownerKeys = [
    "account:owner@bank.test",
    `address:${scenario.sameAddress ? "127.0.0.21" : "127.0.0.9"}`,
  ];
  const guesserKeys = ["account:owner@bank.test", "address:127.0.0.21"];
  let guesserAtMs = scenario.phaseMs;
  let ownerAtMs = scenario.ownerArrivesMs;
  let ticket: WaitTicket | null = null;
  const attempts: { atMs: number; allowed: boolean; retryAfter?: number }[] = [];
  while (attempts.length < 5) {
    // Ties go to the guesser: it is the worst case for the owner.
    if (guesserAtMs <= ownerAtMs) {
      for (let i = 0; i < scenario.burst; i++) server.attempt(guesserKeys, null, guesserAtMs, false);
      guesserAtMs += 250;
      continue;
    }
    const outcome = server.attempt(ownerKeys, ticket, ownerAtMs, true);
    if (outcome.allowed) {
      attempts.push({ atMs: ownerAtMs, allowed: true });
      break;
    }
    const retryAfter = retryAfterSeconds(outcome.untilMs, ownerAtMs);
    attempts.push({ atMs: ownerAtMs, allowed: false, retryAfter });
    if (scenario.keepsTicket) ticket = outcome.ticket;
    ownerAtMs += retryAfter * 1000 + scenario.latencyMs;
  }
  return { attempts, server };
}

Deno.test("under a guess every 250 ms, the owner in a new browser gets in on the first attempt after one wait, within 30 s", () => {
  fc.assert(
    fc.property(
      fc.record({
        phaseMs: fc.integer({ min: 0, max: 249 }),
        burst: fc.integer({ min: 1, max: 4 }),
        // Past the first minute the guesser has driven the waits to their 30 s cap.
        ownerArrivesMs: fc.integer({ min: 60_000, max: 300_000 }),
        latencyMs: fc.integer({ min: 0, max: 800 }),
        sameAddress: fc.boolean(),
        keepsTicket: fc.constant(true),
      }),
      (scenario) => {
        const { attempts } = signInUnderAttack(scenario);
        const last = attempts[attempts.length - 1];
        assert(last.allowed, `still refused after ${attempts.length} attempts`);
        assert(attempts.length <= 2, `${attempts.length} attempts: waited more than once`);
        if (attempts.length === 2) assert(attempts[0].retryAfter! <= 30);
        const delayMs = last.atMs - attempts[0].atMs;
        assert(delayMs <= 30_000 + scenario.latencyMs, `in after ${delayMs} ms`);
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("why the ticket: an owner who comes back after Retry-After without it meets a new wait every time", () => {
  // The guesser's failure lands exactly when each wait ends (30 s is a multiple of its 250 ms), and it
  // asks first: without the ticket the owner is refused again and again, as before waiting tickets.
  const { attempts } = signInUnderAttack({
    phaseMs: 0,
    burst: 1,
    ownerArrivesMs: 90_100,
    latencyMs: 0,
    sameAddress: false,
    keepsTicket: false,
  });
  assert.deepEqual(attempts.map((attempt) => attempt.allowed), [false, false, false, false, false]);
  const withTicket = signInUnderAttack({
    phaseMs: 0,
    burst: 1,
    ownerArrivesMs: 90_100,
    latencyMs: 0,
    sameAddress: false,
    keepsTicket: true,
  });
  assert.deepEqual(withTicket.attempts.map((attempt) => attempt.allowed), [false, true]);
});

Deno.test("guessing stays bounded whatever the guesser sends: past the cap, at most two judged attempts per key in any 30 s", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          gapMs: fc.integer({ min: 0, max: 3_000 }),
          parallel: fc.integer({ min: 1, max: 5 }),
          presentsTicket: fc.boolean(),
          fromOwnAddress: fc.boolean(),
        }),
        { minLength: 50, maxLength: 400 },
      ),
      (requests) => {
        const server = new FakeServer();
        // The guesser keeps every ticket it is given and presents the newest usable one when it likes.
        const tickets: WaitTicket[] = [];
        let nowMs = 0;
        for (const request of requests) {
          nowMs += request.gapMs;
          const keys = ["account:owner@bank.test", `address:${request.fromOwnAddress ? "a" : "b"}`];
          for (let i = 0; i < request.parallel; i++) {
            const usable = tickets.filter((t) =>
              t.validFromMs <= nowMs && nowMs < t.validFromMs + TICKET_LIFETIME_MS
            );
            const ticket = request.presentsTicket ? usable[usable.length - 1] ?? null : null;
            const outcome = server.attempt(keys, ticket, nowMs, false);
            if (!outcome.allowed && outcome.ticket) tickets.push(outcome.ticket);
          }
        }
        const atCap = (key: string) =>
          server.judged.filter((j) => j.key === key && j.failuresBefore >= 9).map((j) => j.atMs);
        for (const key of new Set(server.judged.map((j) => j.key))) {
          const times = atCap(key);
          for (const start of times) {
            const inWindow = times.filter((t) => t >= start && t < start + TICKET_INTERVAL_MS).length;
            assert(inWindow <= 2, `${key}: ${inWindow} judged attempts within 30 s of ${start}`);
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("a ticket: valid from the end of the wait, kept while pending, a new one once expired", () => {
  const keys = [{ rule: ACCOUNT_BACKOFF, state: { failures: 20, lastFailureMs: 0, ticketUsedMs: null } }];
  const first = decideAttempt(keys, null, 10_000);
  assert.deepEqual(first, { allowed: false, untilMs: 30_000, newTicketFromMs: 30_000 });
  // Coming back early with it: told the same time again, no new ticket.
  assert.deepEqual(decideAttempt(keys, { validFromMs: 30_000 }, 20_000), {
    allowed: false,
    untilMs: 30_000,
    newTicketFromMs: null,
  });
  // Someone else failed at 29.9 s: the wait moved, the ticket still lets its holder through at 30 s.
  const moved = [{
    rule: ACCOUNT_BACKOFF,
    state: { failures: 21, lastFailureMs: 29_900, ticketUsedMs: null },
  }];
  const through = decideAttempt(moved, { validFromMs: 30_000 }, 30_000);
  assert(through.allowed);
  assert.equal(through.states[0].ticketUsedMs, 30_000);
  assert.equal(through.states[0].failures, 22, "counted as a failure until the password is found right");
  // A second ticket within 30 s waits for the first's interval or the wait, whichever ends first.
  const spent = [{
    rule: ACCOUNT_BACKOFF,
    state: { failures: 22, lastFailureMs: 30_000, ticketUsedMs: 30_000 },
  }];
  assert.deepEqual(decideAttempt(spent, { validFromMs: 29_000 }, 31_000), {
    allowed: false,
    untilMs: 60_000,
    newTicketFromMs: null,
  });
  // An expired ticket is none: the browser is given a new one.
  const expired = decideAttempt(moved, { validFromMs: 0 }, TICKET_LIFETIME_MS + 1_000);
  assert.equal(expired.allowed, true, "a wait forgotten after 15 minutes lets anyone through");
  const stillWaiting = [{
    rule: ACCOUNT_BACKOFF,
    state: { failures: 21, lastFailureMs: TICKET_LIFETIME_MS, ticketUsedMs: null },
  }];
  const renewed = decideAttempt(stillWaiting, { validFromMs: 0 }, TICKET_LIFETIME_MS + 1_000);
  assert.deepEqual(renewed, {
    allowed: false,
    untilMs: TICKET_LIFETIME_MS + 30_000,
    newTicketFromMs: TICKET_LIFETIME_MS + 30_000,
  });
});

Deno.test("a right password hands back the failure its attempt was counted as", () => {
  const counted = decideAttempt([{ rule: ACCOUNT_BACKOFF, state: null }], null, 0);
  assert(counted.allowed);
  assert.equal(counted.states[0].failures, 1);
  assert.equal(afterRightPassword(ACCOUNT_BACKOFF, counted.states[0], 0).failures, 0);
});

const CALM_CODES = {
  arrivedAtMs: 1_000,
  nowMs: 1_000.5,
  lastWrongCodeMs: null,
  wrongCodesThisSignIn: 0,
  wrongCodesRecentMs: [],
  backoffUntilMs: null,
};

Deno.test("second factor: five wrong codes end the pending sign-in; the next answer asks for the password", () => {
  assert.equal(signInEndsAfter(4), false);
  assert.equal(signInEndsAfter(5), true);
  assert.deepEqual(codeVerdict({ ...CALM_CODES, wrongCodesThisSignIn: 5 }), { kind: "password_again" });
  assert.deepEqual(codeVerdict({ ...CALM_CODES, wrongCodesThisSignIn: 4 }), { kind: "judge" });
});

Deno.test("second factor: the eleventh wrong code within an hour is refused unjudged until the oldest is an hour old", () => {
  const now = 10 * 60_000;
  const ten = Array.from({ length: 10 }, (_, i) => i * 60_000);
  assert.deepEqual(codeVerdict({ ...CALM_CODES, arrivedAtMs: now, nowMs: now, wrongCodesRecentMs: ten }), {
    kind: "wait",
    reason: "hourly_limit",
    untilMs: WRONG_CODE_WINDOW_MS,
  });
  const later = WRONG_CODE_WINDOW_MS + 1;
  assert.deepEqual(
    codeVerdict({ ...CALM_CODES, arrivedAtMs: later, nowMs: later, wrongCodesRecentMs: ten }),
    { kind: "judge" },
  );
});

Deno.test("second factor: a burst of thirty parallel codes gets one judged; a code sent after the answer is judged", () => {
  // Thirty codes arrive within 0.03 ms; each is decided in turn, later, in the write transaction.
  let lastWrongCodeMs: number | null = null;
  const verdicts = Array.from({ length: 30 }, (_, i) => {
    const verdict = codeVerdict({
      ...CALM_CODES,
      arrivedAtMs: 1_000 + i / 1_000,
      nowMs: 1_002 + i,
      lastWrongCodeMs,
    });
    if (verdict.kind === "judge") lastWrongCodeMs = 1_002 + i;
    return verdict.kind;
  });
  assert.deepEqual(verdicts.filter((kind) => kind === "judge").length, 1);
  const refused = codeVerdict({ ...CALM_CODES, arrivedAtMs: 1_000, nowMs: 1_005, lastWrongCodeMs: 1_002 });
  assert.deepEqual(refused, { kind: "wait", reason: "parallel", untilMs: 1_005 + PARALLEL_CODE_RETRY_MS });
  assert.deepEqual(
    codeVerdict({ ...CALM_CODES, arrivedAtMs: 1_002.001, nowMs: 1_003, lastWrongCodeMs: 1_002 }),
    { kind: "judge" },
  );
  assert.deepEqual(
    codeVerdict({
      ...CALM_CODES,
      arrivedAtMs: 1_002.001,
      nowMs: 1_003,
      lastWrongCodeMs: 1_002,
      backoffUntilMs: 2_003,
    }),
    { kind: "wait", reason: "backoff", untilMs: 2_003 },
  );
});

Deno.test("dashboardAlerts(): accounts under sign-in attack come first, three named and the rest counted", () => {
  const nowMs = Date.parse("2026-11-28T12:00:00.000Z");
  const calm = {
    pendingInstitutions: 0,
    awaitingApproval: 0,
    activeConnections: [{
      name: "Bank of Testland",
      lastTestAt: new Date(nowMs - 60_000).toISOString(),
      lastTestSucceeded: true,
      failingSince: null,
    }],
    nowMs,
    apiRequestsLastHour: 0,
    apiServerErrorsLastHour: 0,
  };
  const alerts = dashboardAlerts({
    ...calm,
    accountsUnderAttack: ["a@bank.test", "b@bank.test", "c@bank.test", "d@bank.test"],
  });
  assert.deepEqual(alerts.map((alert) => [alert.id, alert.tone]), [["sign-in-attacks", "error"], [
    "operational",
    "ok",
  ]]);
  assert.equal(alerts[0].title, "4 accounts under sign-in attack");
  assert.match(alerts[0].text, /for a@bank\.test, b@bank\.test, c@bank\.test and 1 other\./);
  assert.equal(
    dashboardAlerts({ ...calm, accountsUnderAttack: ["a@bank.test"] })[0].title,
    "1 account under sign-in attack",
  );
  assert.deepEqual(dashboardAlerts({ ...calm, accountsUnderAttack: [] }).map((alert) => alert.id), [
    "operational",
  ]);
});
