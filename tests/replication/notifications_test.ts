/**
 * Notifications in the replicated topology (sqld, headquarters and a regional node as processes): the
 * live stream served by a regional node from its replica brings a request filed there (forwarded to
 * headquarters) within a second, and a regional node whose link to headquarters went down reports the
 * span its changes were paused, once the link is back, through its verified node token.
 */
import assert from "node:assert/strict";
import { e2eCrew } from "../e2e/helpers.ts";
import { MIN_REPORTED_PAUSE_MS } from "../../src/server/topology/pause_reports.ts";
import { call, signIn, startCluster, within } from "./support/cluster.ts";

/** Reads server-sent events until one named `name` arrives; resolves with its data. */
async function nextEvent(reader: ReadableStreamDefaultReader<string>, buffer: { text: string }, name: string) {
  for (;;) {
    const end = buffer.text.indexOf("\n\n");
    if (end >= 0) {
      const block = buffer.text.slice(0, end);
      buffer.text = buffer.text.slice(end + 2);
      if (block.includes(`event: ${name}\n`)) return JSON.parse(/^data: (.*)$/m.exec(block)![1]);
      continue;
    }
    const { value, done } = await reader.read();
    if (done) throw new Error("the stream ended");
    buffer.text += value;
  }
}

Deno.test({
  name: "a regional node's live stream brings a request filed there within a second; a pause of its link to headquarters is reported once it is back",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const cluster = await startCluster({ regions: ["north"] });
    const [north] = cluster.regions;
    const northUrl = north.server.baseUrl;
    try {
      const hq = cluster.headquarters.baseUrl;
      const crew = await e2eCrew(hq);
      const stream = await fetch(`${northUrl}/api/notifications/stream`, {
        headers: { cookie: crew.approver, accept: "text/event-stream" },
      });
      assert.equal(stream.status, 200);
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      const buffer = { text: "" };
      try {
        await nextEvent(reader, buffer, "unread");
        const filed = await call(northUrl, "POST", "/api/ledger-accounts", crew.operator, {
          accountNumber: "REPL-BELL-1",
          accountType: "ledger",
          accountName: "Regional bell",
          currency: "USD",
          currentBalance: "4000.00",
          requestReason: "Filed at north",
        });
        assert.equal(filed.status, 202, JSON.stringify(filed.body));
        const started = performance.now();
        const event = await nextEvent(reader, buffer, "notification");
        const latencyMs = performance.now() - started;
        assert.equal(event.kind, "approval_requested");
        assert.equal(event.subjectId, filed.body.approvalRequest.id);
        assert(latencyMs < 1_000, `the event reached north's stream after ${latencyMs} ms`);
      } finally {
        await reader.cancel();
      }

      // North loses headquarters long enough to pause changes, then gets it back.
      const northAdmin = await signIn(northUrl);
      north.headquartersLink.down();
      await within(15_000, async () =>
        (await call(northUrl, "GET", "/api/system/replication", northAdmin)).body.changesAccepted === false);
      await new Promise((resolve) => setTimeout(resolve, MIN_REPORTED_PAUSE_MS));
      north.headquartersLink.up();
      const admin = await signIn(hq);
      await within(15_000, async () => {
        const feed = await call(hq, "GET", "/api/notifications", admin);
        return feed.body.items.some((item: { kind: string }) => item.kind === "changes_paused");
      });
      const feed = await call(hq, "GET", "/api/notifications", admin);
      const paused = feed.body.items.filter((item: { kind: string }) => item.kind === "changes_paused");
      assert.equal(paused.length, 1);
      assert.match(paused[0].summary, /^Changes were paused at node north from \S+ to \S+ \(about \d+ min\): it could not reach headquarters$/);
    } finally {
      await cluster.stop();
    }
  },
});
