/**
 * Notification e-mail against a real SMTP server (smtp-server on 127.0.0.1): the SMTP settings with
 * their write-only, encrypted password, the test e-mail, each user's choice of kinds, and the drill
 * with the mail server stopped: the change still succeeds, the event is in the feed, the failure is
 * logged and recorded.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { sendPendingEmails } from "../../src/server/features/notifications/email_sender.ts";
import { type MailServer, readable, startMailServer } from "../helpers/mail_server.ts";
import { createStaff, seededStaff } from "../helpers/staff.ts";
import { ADMIN_EMAIL, createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import { nextAccountNumber } from "./ledger_helpers.ts";

const SMTP_USER = "console-mailer";
const SMTP_PASSWORD = "smtp-secret-Corvid-7731";

const smtpBody = (port: number, overrides: Record<string, unknown> = {}) => ({
  host: "127.0.0.1",
  port,
  tls: "none",
  username: SMTP_USER,
  password: SMTP_PASSWORD,
  fromAddress: "console@centralbank.test",
  ...overrides,
});

async function fileRequest(t: TestApp, cookie: string) {
  const res = await t.request("POST", "/api/ledger-accounts", {
    cookie,
    body: {
      accountNumber: nextAccountNumber("ledger"),
      accountType: "ledger",
      accountName: "Reserve",
      currency: "USD",
      currentBalance: "5000.00",
      requestReason: "Opening the reserve",
    },
  });
  return (await expectJson(res, 202)).approvalRequest as { id: string };
}

async function withMail(fn: (t: TestApp, admin: string, mail: MailServer) => Promise<void>) {
  const t = await createTestApp();
  const mail = await startMailServer({ user: SMTP_USER, password: SMTP_PASSWORD });
  try {
    await fn(t, await t.login(), mail);
  } finally {
    await mail.stop().catch(() => {});
    await t.close();
  }
}

Deno.test("SMTP settings: administrators only, 400 per field, password write-only and encrypted at rest, audited", async () => {
  await withMail(async (t, admin, mail) => {
    const operator = await createStaff(t, admin, "op@centralbank.test", ["operator"]);
    const empty = await expectJson(await t.request("GET", "/api/settings/smtp", { cookie: operator.cookie }), 200);
    assert.equal(empty.configured, false);
    const forbidden = await expectJson(
      await t.request("PUT", "/api/settings/smtp", { cookie: operator.cookie, body: smtpBody(mail.port) }),
      403,
    );
    assert.match(forbidden.message, /Only administrators can change the e-mail settings/);
    const bad = await expectJson(
      await t.request("PUT", "/api/settings/smtp", {
        cookie: admin,
        body: smtpBody(mail.port, { host: "smtp://x", port: 70_000, tls: "ssl", fromAddress: "nobody" }),
      }),
      400,
    );
    assert.deepEqual(Object.keys(bad.fields).sort(), ["fromAddress", "host", "port", "tls"]);

    const saved = await expectJson(
      await t.request("PUT", "/api/settings/smtp", { cookie: admin, body: smtpBody(mail.port) }),
      200,
    );
    assert.equal(saved.passwordSet, true);
    assert.equal("password" in saved, false);
    const read = await expectJson(await t.request("GET", "/api/settings/smtp", { cookie: operator.cookie }), 200);
    assert.deepEqual({ ...read, updatedAt: undefined }, { ...saved, updatedAt: undefined });
    assert.equal(JSON.stringify(read).includes(SMTP_PASSWORD), false);
    const [stored] = await t.deps.db.read.all<{ ciphertext: string }>(
      sql`SELECT password_ciphertext AS ciphertext FROM smtp_settings`,
    );
    assert.equal(stored.ciphertext.includes(SMTP_PASSWORD), false);
    assert.equal(await t.deps.secrets.decrypt(stored.ciphertext), SMTP_PASSWORD);

    // Saving without a password keeps the stored one; null clears it.
    const kept = await expectJson(
      await t.request("PUT", "/api/settings/smtp", { cookie: admin, body: { ...smtpBody(mail.port), password: undefined } }),
      200,
    );
    assert.equal(kept.passwordSet, true);
    const audit = await t.deps.db.read.all<{ action: string; changes: string }>(
      sql`SELECT action, changes FROM audit_trail WHERE entity_type = 'smtp_settings' ORDER BY seq`,
    );
    assert.deepEqual(audit.map((row) => row.action), ["create", "update"]);
    assert.deepEqual(audit.map((row) => JSON.parse(row.changes).password), ["set", "unchanged"]);
    assert(audit.every((row) => !row.changes.includes(SMTP_PASSWORD)));
  });
});

Deno.test("Send test e-mail reaches the administrator's address through the real server, and says so", async () => {
  await withMail(async (t, admin, mail) => {
    await expectJson(await t.request("PUT", "/api/settings/smtp", { cookie: admin, body: smtpBody(mail.port) }), 200);
    const sent = await expectJson(await t.request("POST", "/api/settings/smtp/test", { cookie: admin }), 200);
    assert.equal(sent.sent, true);
    assert.equal(sent.to, ADMIN_EMAIL);
    assert.equal(mail.received.length, 1);
    assert.deepEqual(mail.received[0].to, [ADMIN_EMAIL]);
    assert.match(readable(mail.received[0].data), /This is a test e-mail from the Central Bank Registry Console/);

    // A wrong password: the server's refusal is the answer.
    await expectJson(
      await t.request("PUT", "/api/settings/smtp", {
        cookie: admin,
        body: smtpBody(mail.port, { password: "wrong" }),
      }),
      200,
    );
    const refused = await expectJson(await t.request("POST", "/api/settings/smtp/test", { cookie: admin }), 502);
    assert.equal(refused.sent, false);
    assert.match(refused.message, /The mail server did not accept the test e-mail: .*Invalid username or password/);
  });
});

Deno.test("a notification is e-mailed to those who chose its kind, with the right recipient and no secret", async () => {
  await withMail(async (t, admin, mail) => {
    await expectJson(await t.request("PUT", "/api/settings/smtp", { cookie: admin, body: smtpBody(mail.port) }), 200);
    const maker = await createStaff(t, admin, "maker@centralbank.test", ["operator"]);
    const chooser = await seededStaff(t, "chooser@centralbank.test", ["approver"]);
    const quiet = await seededStaff(t, "quiet@centralbank.test", ["approver"]);
    const choices = await expectJson(
      await t.request("PUT", "/api/notifications/preferences", {
        cookie: chooser.cookie,
        body: { emailKinds: ["approval_requested"] },
      }),
      200,
    );
    assert.equal(choices.find((choice: { kind: string }) => choice.kind === "approval_requested").email, true);
    const invalid = await expectJson(
      await t.request("PUT", "/api/notifications/preferences", {
        cookie: chooser.cookie,
        body: { emailKinds: ["no_such_kind"] },
      }),
      400,
    );
    assert(invalid.fields["emailKinds.0"]);
    // The maker chose it too, but is never told of their own request.
    await expectJson(
      await t.request("PUT", "/api/notifications/preferences", {
        cookie: maker.cookie,
        body: { emailKinds: ["approval_requested"] },
      }),
      200,
    );
    // The sender's first run starts at the present (as at the server's start): no history is e-mailed.
    assert.equal(await sendPendingEmails(t.deps.db, t.deps.secrets), 0);
    const request = await fileRequest(t, maker.cookie);
    assert.equal(await sendPendingEmails(t.deps.db, t.deps.secrets), 1);
    assert.equal(mail.received.length, 1);
    const message = mail.received[0];
    assert.deepEqual(message.to, [chooser.email]);
    const text = readable(message.data);
    assert.match(text, /Opening balance of \$5,000\.00 requested by maker@centralbank\.test waits for a decision/);
    assert.match(text, /Open it in the console: \/approvals/);
    for (const secret of [SMTP_PASSWORD, chooser.cookie.split("=")[1], maker.cookie.split("=")[1]]) {
      assert.equal(text.includes(secret), false);
    }
    const deliveries = await t.deps.db.read.all<{ recipient: string; outcome: string }>(
      sql`SELECT recipient, outcome FROM notification_email_deliveries`,
    );
    assert.deepEqual(deliveries, [{ recipient: chooser.email, outcome: "sent" }]);
    // The other approver sees it in the bell, and chose no e-mail.
    const quietFeed = await expectJson(await t.request("GET", "/api/notifications", { cookie: quiet.cookie }), 200);
    assert.equal(quietFeed.items[0].subjectId, request.id);
    // Nothing new: nothing sent again.
    assert.equal(await sendPendingEmails(t.deps.db, t.deps.secrets), 0);
    assert.equal(mail.received.length, 1);
  });
});

Deno.test("with the mail server stopped the change succeeds, the event is in the feed, the failure is logged and recorded", async () => {
  await withMail(async (t, admin, mail) => {
    await expectJson(await t.request("PUT", "/api/settings/smtp", { cookie: admin, body: smtpBody(mail.port) }), 200);
    const maker = await createStaff(t, admin, "maker@centralbank.test", ["operator"]);
    const chooser = await seededStaff(t, "chooser@centralbank.test", ["approver"]);
    await expectJson(
      await t.request("PUT", "/api/notifications/preferences", {
        cookie: chooser.cookie,
        body: { emailKinds: ["approval_requested"] },
      }),
      200,
    );
    // Claim the history first, so that only the drill's event is left to send.
    await sendPendingEmails(t.deps.db, t.deps.secrets);
    await mail.stop();

    const request = await fileRequest(t, maker.cookie);
    const feed = await expectJson(await t.request("GET", "/api/notifications", { cookie: chooser.cookie }), 200);
    assert.deepEqual(feed.items.map((item: { subjectId: string }) => item.subjectId), [request.id]);

    const logged: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => logged.push(args.join(" "));
    try {
      assert.equal(await sendPendingEmails(t.deps.db, t.deps.secrets), 1);
    } finally {
      console.error = original;
    }
    assert.equal(logged.length, 1);
    assert.match(logged[0], /E-mail of event \d+ to chooser@centralbank\.test failed: .*ECONNREFUSED|connect/i);
    const deliveries = await t.deps.db.read.all<{ recipient: string; outcome: string; detail: string }>(
      sql`SELECT recipient, outcome, detail FROM notification_email_deliveries`,
    );
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0].outcome, "failed");
    assert.equal(deliveries[0].recipient, chooser.email);
    // The request is still there to decide, and the test e-mail answers the failure honestly.
    const pending = await expectJson(
      await t.request("GET", `/api/approvals/${request.id}`, { cookie: chooser.cookie }),
      200,
    );
    assert.equal(pending.status, "pending");
    const refused = await expectJson(await t.request("POST", "/api/settings/smtp/test", { cookie: admin }), 502);
    assert.equal(refused.sent, false);
  });
});
