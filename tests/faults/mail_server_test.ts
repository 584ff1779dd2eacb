/**
 * The notification e-mail in a real console process (its own background sender, its own network
 * permissions): a mail server that accepts connections and never greets holds the sender for its
 * bounded greeting wait, while requests that publish events answer at once, the events are in the
 * feed, and the failure is logged; pointed at a working mail server, the next event's e-mail arrives.
 */
import assert from "node:assert/strict";
import { cookieSession, e2eAdminCookie, e2eCrew, startServer, type TestServer } from "../e2e/helpers.ts";
import { readable, startMailServer } from "../helpers/mail_server.ts";
import { SMTP_GREETING_TIMEOUT_MS } from "../../src/server/mail/smtp.ts";
import { EMAIL_POLL_INTERVAL_MS } from "../../src/server/features/notifications/email_sender.ts";

/** A request that publishes an event answers well within this, whatever the mail server does. */
const REQUEST_BOUND_MS = 2_000;

/** Accepts connections and says nothing: an SMTP server that hangs before its greeting. */
function blackHole() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) held.push(conn);
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close() {
      for (const conn of held) conn.close();
      listener.close();
    },
  };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let accountNumber = 0;
const openingRequest = () => ({
  accountNumber: `MAIL-DRILL-${++accountNumber}`,
  accountType: "ledger",
  accountName: "Drill ledger",
  currency: "USD",
  currentBalance: "3000.00",
  requestReason: "Mail drill",
});

Deno.test({
  name: "a mail server that never answers holds only the e-mail: requests answer at once, events are in the feed, the failure is logged",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const hole = blackHole();
    const mail = await startMailServer();
    let server: TestServer | null = null;
    try {
      server = await startServer({ ALLOW_NET_HOSTS: `127.0.0.1:${hole.port},127.0.0.1:${mail.port}` });
      const { baseUrl } = server;
      const admin = cookieSession(baseUrl, await e2eAdminCookie(baseUrl));
      const crew = await e2eCrew(baseUrl);
      const approver = cookieSession(baseUrl, crew.approver);
      const operator = cookieSession(baseUrl, crew.operator);
      const approverEmail = (await approver("GET", "/api/auth/user")).json.email;
      const smtp = (port: number) => ({ host: "127.0.0.1", port, tls: "none", fromAddress: "console@centralbank.test" });
      assert.equal((await admin("PUT", "/api/settings/smtp", smtp(hole.port))).status, 200);
      // A host the process may not reach is refused when saved.
      const refused = await admin("PUT", "/api/settings/smtp", smtp(1));
      assert.equal(refused.status, 400);
      assert.match(refused.json.fields.host, /add 127\.0\.0\.1:1 to ALLOW_NET_HOSTS/);
      assert.equal((await approver("PUT", "/api/notifications/preferences", { emailKinds: ["approval_requested"] })).status, 200);
      // The sender's first run starts at the present.
      await new Promise((resolve) => setTimeout(resolve, EMAIL_POLL_INTERVAL_MS + 500));

      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const started = performance.now();
        const filed = await operator("POST", "/api/ledger-accounts", openingRequest());
        const tookMs = performance.now() - started;
        assert.equal(filed.status, 202);
        assert(tookMs < REQUEST_BOUND_MS, `filing took ${tookMs} ms`);
        ids.push(filed.json.approvalRequest.id);
        // The second is filed while the sender waits on the silent server.
        if (i === 0) await new Promise((resolve) => setTimeout(resolve, EMAIL_POLL_INTERVAL_MS + 500));
      }
      const feed = await approver("GET", "/api/notifications");
      assert.deepEqual(feed.json.items.map((item: { subjectId: string }) => item.subjectId), [...ids].reverse());
      const failure = new RegExp(`E-mail of event \\d+ to ${approverEmail.replace(".", "\\.")} failed`);
      await until("the logged e-mail failure", () => failure.test(server!.output()), SMTP_GREETING_TIMEOUT_MS * 3);

      // The mail server works again: the next event's e-mail arrives.
      assert.equal((await admin("PUT", "/api/settings/smtp", smtp(mail.port))).status, 200);
      const third = await operator("POST", "/api/ledger-accounts", openingRequest());
      assert.equal(third.status, 202);
      await until(
        "the e-mail of the third request",
        () => mail.received.some((message) => message.to.includes(approverEmail)),
        SMTP_GREETING_TIMEOUT_MS * 4,
      );
      const message = mail.received.find((received) => received.to.includes(approverEmail))!;
      assert.match(readable(message.data), /Opening balance of \$3,000\.00 requested by .* waits for a decision/);
    } catch (error) {
      if (server) console.error(`server output:\n${server.output().slice(-3000)}`);
      throw error;
    } finally {
      await server?.stop();
      await mail.stop();
      hole.close();
    }
  },
});
