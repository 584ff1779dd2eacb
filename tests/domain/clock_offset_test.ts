import assert from "node:assert/strict";
import {
  bestFix,
  CLOCK_SKEW_WARN_MS,
  type ClockFix,
  clockOffsetLabel,
  clockSkewWarning,
  fixOf,
  keepRecent,
  primaryTimeAt,
} from "../../src/domain/clock_offset.ts";

const PRIMARY_AT_SEND = Date.UTC(2030, 0, 15, 9, 30);
const TWO_MINUTES_MS = 120_000;

/**
 * A question to a primary whose clock reads `PRIMARY_AT_SEND` when it leaves a node `offsetMs`
 * ahead of it, `outMs` on the way there and `backMs` on the way back.
 */
function sampleWith(offsetMs: number, outMs: number, backMs: number, sentMonoMs = 1_000) {
  return {
    sentMonoMs,
    receivedMonoMs: sentMonoMs + outMs + backMs,
    sentWallMs: PRIMARY_AT_SEND + offsetMs,
    primaryMs: PRIMARY_AT_SEND + outMs,
  };
}

Deno.test("a sample is read at the midpoint of its round trip: exact when the way there and back take as long", () => {
  const fix = fixOf(sampleWith(TWO_MINUTES_MS, 20, 20));
  assert.deepEqual(fix, {
    monoMs: 1_020,
    primaryMs: PRIMARY_AT_SEND + 20,
    roundTripMs: 40,
    offsetMs: TWO_MINUTES_MS,
  });
  const behind = fixOf(sampleWith(-3_000, 5, 5));
  assert.equal(behind.offsetMs, -3_000);
});

Deno.test("however lopsided the round trip, the offset is off by at most half of it", () => {
  for (const [outMs, backMs] of [[0, 80], [80, 0], [10, 70], [300, 1]]) {
    const fix = fixOf(sampleWith(TWO_MINUTES_MS, outMs, backMs));
    const errorMs = Math.abs(fix.offsetMs - TWO_MINUTES_MS);
    assert.ok(errorMs <= fix.roundTripMs / 2, `${outMs}/${backMs}: off by ${errorMs} ms`);
  }
});

Deno.test("of the recent samples, the one with the shortest round trip is trusted (the newest of equals)", () => {
  const slow = fixOf(sampleWith(TWO_MINUTES_MS, 400, 10, 1_000));
  const fast = fixOf(sampleWith(TWO_MINUTES_MS, 3, 3, 2_000));
  const alsoFast = fixOf(sampleWith(TWO_MINUTES_MS, 3, 3, 3_000));
  assert.equal(bestFix([]), null);
  assert.equal(bestFix([slow, fast]), fast);
  assert.equal(bestFix([fast, slow]), fast);
  assert.equal(bestFix([fast, alsoFast, slow]), alsoFast);
});

Deno.test("only the newest samples are kept, so an old short round trip gives way once it is old", () => {
  let fixes: ClockFix[] = [];
  const made = Array.from({ length: 5 }, (_, i) => fixOf(sampleWith(0, 1 + i, 1, i * 1_000)));
  for (const fix of made) fixes = keepRecent(fixes, fix, 3);
  assert.deepEqual(fixes, made.slice(2));
  assert.equal(bestFix(fixes), made[2]);
  assert.deepEqual(keepRecent([], made[0], 0), [made[0]], "at least the newest sample is kept");
});

Deno.test("the primary's time runs on from the trusted sample by the monotonic time since", () => {
  const fix = fixOf(sampleWith(TWO_MINUTES_MS, 10, 10));
  assert.equal(primaryTimeAt(fix, fix.monoMs), PRIMARY_AT_SEND + 10);
  assert.equal(primaryTimeAt(fix, fix.monoMs + 61_500.25), PRIMARY_AT_SEND + 10 + 61_500.25);
});

Deno.test("a clock further from the primary's than the bound is reported, ahead or behind", () => {
  assert.equal(CLOCK_SKEW_WARN_MS, 5_000);
  assert.equal(clockSkewWarning(null), null, "nothing measured, nothing to say");
  assert.equal(clockSkewWarning(0), null);
  assert.equal(clockSkewWarning(CLOCK_SKEW_WARN_MS), null, "the bound itself is tolerated");
  assert.equal(clockSkewWarning(-CLOCK_SKEW_WARN_MS), null);
  assert.equal(
    clockSkewWarning(120_034),
    "This node's clock is 2 min ahead of the primary's (more than 5 s apart). Sessions and limits follow " +
      "the primary's clock; correct this server's time synchronisation (NTP).",
  );
  assert.match(clockSkewWarning(-CLOCK_SKEW_WARN_MS - 1)!, /^This node's clock is 5 s behind the primary's/);
  assert.match(clockSkewWarning(-125_400)!, /is 2 min 5 s behind/);
  assert.match(clockSkewWarning(12_000, 10_000)!, /more than 10 s apart/);
});

Deno.test("the badge's short form says how far and which way", () => {
  assert.equal(clockOffsetLabel(120_034), "Clock 2 min ahead");
  assert.equal(clockOffsetLabel(-7_600), "Clock 8 s behind");
  assert.equal(clockOffsetLabel(3_725_000), "Clock 62 min 5 s ahead");
});
