/**
 * Webhooks end to end in one process: registration (validation, the SSRF guard, the secret shown
 * once and encrypted at rest, audit rows), and delivery by the real worker to a real HTTP receiver on
 * 127.0.0.1 that verifies every signature with its own implementation of the Standard Webhooks spec
 * (WebCrypto, not the server's node:crypto), retries with back-off, failure, redelivery, and the
 * change that caused the event answering promptly while the receiver hangs.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { MAX_WEBHOOK_BODY_BYTES } from "../../src/domain/webhooks.ts";
import { publishEvent } from "../../src/server/events/outbox.ts";
import { startWebhookWorker, type WebhookWorker } from "../../src/server/features/webhooks/worker.ts";
import { approvePending, secondPerson } from "../helpers/staff.ts";
import { createTestApp, type Desk, expectJson, type TestApp } from "../helpers/test_app.ts";

const TOLERANCE_SECONDS = 5 * 60;
const FAST_RETRIES = { firstRetryDelayMs: 150, backoffFactor: 2, maxRetryDelayMs: 1_000, maxAttempts: 3 };

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** The receiver's side of the spec: HMAC-SHA-256 with WebCrypto over `${id}.${timestamp}.${body}`. */
async function verifySignature(
  secret: string,
  headers: Headers,
  body: string,
  nowSeconds: number,
): Promise<boolean> {
  const id = headers.get("webhook-id");
  const timestamp = headers.get("webhook-timestamp");
  const signatures = headers.get("webhook-signature");
  if (!id || !timestamp || !signatures || !secret.startsWith("whsec_")) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = await crypto.subtle.importKey(
    "raw",
    base64Bytes(secret.slice("whsec_".length)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  for (const signature of signatures.split(" ")) {
    const [version, mac] = signature.split(",");
    if (version === "v1" && mac && await crypto.subtle.verify("HMAC", key, base64Bytes(mac), signed)) {
      return true;
    }
  }
  return false;
}

interface Received {
  headers: Headers;
  body: string;
  verified: boolean;
}

/** A real HTTP receiver on 127.0.0.1 whose answer the test decides; it verifies each delivery. */
function startReceiver() {
  const received: Received[] = [];
  const state = {
    secret: "",
    answer: (): Promise<Response> | Response => new Response("ok", { status: 200 }),
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const body = await request.text();
    const verified = await verifySignature(
      state.secret,
      request.headers,
      body,
      Math.floor(Date.now() / 1000),
    );
    received.push({ headers: request.headers, body, verified });
    return await state.answer();
  });
  return { received, state, port: server.addr.port, close: () => server.shutdown() };
}

async function eventually(
  worker: WebhookWorker,
  done: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the webhook worker");
    await worker.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function registerInstitution(req: Desk, registrationNumber: string): Promise<{ id: string }> {
  return await expectJson(
    await req("POST", "/api/institutions", {
      body: {
        name: `Hooked Savings ${registrationNumber}`,
        type: "savings",
        registrationNumber,
        address: "5 Outbox Road",
        phoneNumber: "+1 202 555 0150",
        emailAddress: "ops@hooked.example",
      },
    }),
    201,
  );
}

async function changeStatus(req: Desk, id: string, status: string): Promise<void> {
  const checker = await secondPerson(req.testApp);
  await approvePending(
    req.testApp,
    checker.cookie,
    await req("PATCH", `/api/institutions/${id}/status`, {
      body: { status, reason: "Supervisory decision" },
    }),
  );
}

async function deliveriesOf(req: Desk, webhookId: string) {
  return await expectJson<any[]>(await req("GET", `/api/webhooks/${webhookId}/deliveries`), 200);
}

async function withApp(env: Record<string, string>, fn: (t: TestApp, req: Desk) => Promise<void>) {
  const t = await createTestApp(env);
  try {
    await fn(t, await t.desk());
  } finally {
    await t.close();
  }
}

Deno.test("the test's verifier accepts the Standard Webhooks spec's own example and refuses a changed body", async () => {
  const headers = new Headers({
    "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
    "webhook-timestamp": "1614265330",
    "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  });
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  assert.equal(await verifySignature(secret, headers, '{"test": 2432232314}', 1614265330), true);
  assert.equal(await verifySignature(secret, headers, '{"test": 2432232315}', 1614265330), false);
});

Deno.test("a status change reaches the receiver signed per Standard Webhooks; a suspension also as participant_suspended", async () => {
  const receiver = startReceiver();
  await withApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" }, async (t, req) => {
    const worker = startWebhookWorker(t.deps, { pollIntervalMs: 60_000 });
    try {
      const created = await expectJson(
        await req("POST", "/api/webhooks", {
          body: {
            url: `http://127.0.0.1:${receiver.port}/hooks?source=console`,
            eventKinds: ["institution_status_changed", "participant_suspended"],
            description: "Clearing house feed",
          },
        }),
        201,
      );
      assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      receiver.state.secret = created.secret;
      // Shown once: never listed again, and not stored in clear.
      const listed = await expectJson<any[]>(await req("GET", "/api/webhooks"), 200);
      assert.equal(listed.length, 1);
      assert.equal(listed[0].secret, undefined);
      assert.equal(JSON.stringify(listed).includes(created.secret), false);
      const stored = await t.deps.db.read.all<{ secret: string }>(
        sql`SELECT secret_encrypted AS secret FROM webhooks`,
      );
      assert.equal(stored[0].secret.includes(created.secret.slice(6)), false);
      assert.equal(await t.deps.secrets.decrypt(stored[0].secret), created.secret);
      const audit = await t.deps.db.read.all<{ changes: string }>(
        sql`SELECT changes FROM audit_trail WHERE entity_type = 'webhook' AND action = 'create'`,
      );
      assert.equal(audit.length, 1);
      assert.equal(audit[0].changes.includes(created.secret.slice(6)), false);

      const institution = await registerInstitution(req, "HOOK-1");
      await changeStatus(req, institution.id, "active");
      await eventually(worker, () => receiver.received.length === 1);
      await changeStatus(req, institution.id, "suspended");
      await eventually(worker, () => receiver.received.length === 3);

      assert.ok(receiver.received.every((delivery) => delivery.verified), "every signature verifies");
      const bodies = receiver.received.map((delivery) => JSON.parse(delivery.body));
      // The suspension's two events travel at once: arrival order is not promised (docs/webhooks.md).
      assert.deepEqual(bodies.map((body) => body.type).slice(1).sort(), [
        "institution_status_changed",
        "participant_suspended",
      ]);
      assert.equal(bodies[0].type, "institution_status_changed");
      const suspended = bodies.find((body) => body.type === "participant_suspended");
      assert.deepEqual(
        { ...bodies[0].data, changedAt: undefined },
        {
          institutionId: institution.id,
          name: "Hooked Savings HOOK-1",
          registrationNumber: "HOOK-1",
          previousStatus: "pending",
          status: "active",
          reason: "Supervisory decision",
          changedAt: undefined,
        },
      );
      assert.equal(suspended.data.previousStatus, "active");
      assert.equal(suspended.data.status, "suspended");
      assert.match(bodies[0].timestamp, /^\d{4}-\d\d-\d\dT/);
      assert.equal(receiver.received[0].headers.get("content-type"), "application/json");

      const log = await deliveriesOf(req, created.id);
      assert.equal(log.length, 3);
      for (const delivery of log) {
        assert.equal(delivery.status, "succeeded");
        assert.equal(delivery.attempts.length, 1);
        assert.equal(delivery.attempts[0].statusCode, 200);
        assert.equal(delivery.attempts[0].responseExcerpt, "ok");
      }
      // Each event is delivered once: a second turn (or a restarted worker) finds nothing new.
      const again = startWebhookWorker(t.deps, { pollIntervalMs: 60_000 });
      await again.runOnce();
      await again.stop();
      assert.equal((await deliveriesOf(req, created.id)).length, 3);

      // A change made while the webhook is disabled is never delivered, even when the worker reads the
      // outbox only after it was enabled again.
      const patch = (enabled: boolean) => req("PATCH", `/api/webhooks/${created.id}`, { body: { enabled } });
      await expectJson(await patch(false), 200);
      await changeStatus(req, institution.id, "active");
      await expectJson(await patch(true), 200);
      await worker.runOnce();
      assert.equal((await deliveriesOf(req, created.id)).length, 3);
      assert.equal(receiver.received.length, 3);
    } finally {
      await worker.stop();
    }
  });
  await receiver.close();
});

Deno.test("a failing receiver gets retries with back-off, then a failed delivery; redelivery by hand succeeds and is audited", async () => {
  const receiver = startReceiver();
  receiver.state.answer = () => new Response("maintenance window", { status: 503 });
  await withApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" }, async (t, req) => {
    const worker = startWebhookWorker(t.deps, { pollIntervalMs: 60_000, retryPolicy: FAST_RETRIES });
    try {
      const created = await expectJson(
        await req("POST", "/api/webhooks", {
          body: { url: `http://127.0.0.1:${receiver.port}/`, eventKinds: ["participant_suspended"] },
        }),
        201,
      );
      receiver.state.secret = created.secret;
      const institution = await registerInstitution(req, "HOOK-2");
      await changeStatus(req, institution.id, "active");
      await changeStatus(req, institution.id, "suspended");
      await eventually(worker, async () => (await deliveriesOf(req, created.id))[0]?.status === "failed");

      const [failed] = await deliveriesOf(req, created.id);
      assert.equal(failed.eventKind, "participant_suspended");
      assert.equal(failed.attempts.length, FAST_RETRIES.maxAttempts);
      assert.equal(receiver.received.length, FAST_RETRIES.maxAttempts);
      const starts = failed.attempts.map((attempt: any) => Date.parse(attempt.startedAt));
      assert.ok(starts[1] - starts[0] >= FAST_RETRIES.firstRetryDelayMs, "first back-off waited");
      assert.ok(
        starts[2] - starts[1] >= FAST_RETRIES.firstRetryDelayMs * FAST_RETRIES.backoffFactor,
        "second one longer",
      );
      for (const attempt of failed.attempts) {
        assert.equal(attempt.statusCode, 503);
        assert.equal(attempt.responseExcerpt, "maintenance window");
        assert.equal(attempt.succeeded, false);
      }
      assert.equal(failed.nextAttemptAt, null);

      receiver.state.answer = () => new Response(null, { status: 204 });
      const operator = await t.request("POST", `/api/webhook-deliveries/${failed.id}/redeliver`, {
        cookie: req.operatorCookie,
      });
      assert.equal(operator.status, 403);
      await operator.body?.cancel();
      const queued = await expectJson(
        await t.request("POST", `/api/webhook-deliveries/${failed.id}/redeliver`, {
          cookie: req.adminCookie,
        }),
        202,
      );
      assert.equal(queued.status, "pending");
      await eventually(worker, async () => (await deliveriesOf(req, created.id))[0]?.status === "succeeded");
      const [redelivered] = await deliveriesOf(req, created.id);
      assert.equal(redelivered.attempts.length, FAST_RETRIES.maxAttempts + 1);
      assert.equal(redelivered.attempts.at(-1).statusCode, 204);
      assert.ok(receiver.received.every((delivery) => delivery.verified));
      // The same event keeps its webhook-id, so a receiver can tell a redelivery from a new event.
      const ids = new Set(receiver.received.map((delivery) => delivery.headers.get("webhook-id")));
      assert.equal(ids.size, 1);
      const audit = await t.deps.db.read.all<{ entityId: string }>(
        sql`SELECT entity_id AS entityId FROM audit_trail WHERE entity_type = 'webhook_delivery' AND action = 'redeliver'`,
      );
      assert.deepEqual(audit.map((row) => row.entityId), [failed.id]);
    } finally {
      await worker.stop();
    }
  });
  await receiver.close();
});

Deno.test("the change that caused an event answers promptly while the receiver hangs; the attempt times out in the log", async () => {
  const receiver = startReceiver();
  let release = () => {};
  const hung = new Promise<void>((resolve) => release = resolve);
  receiver.state.answer = () => hung.then(() => new Response("late"));
  const attemptTimeoutMs = 1_500;
  await withApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" }, async (t, req) => {
    // The worker runs on its own timer, as in the server, while the change is made.
    const worker = startWebhookWorker(t.deps, {
      pollIntervalMs: 10,
      attemptTimeoutMs,
      retryPolicy: FAST_RETRIES,
    });
    try {
      const created = await expectJson(
        await req("POST", "/api/webhooks", {
          body: { url: `http://127.0.0.1:${receiver.port}/slow`, eventKinds: ["institution_status_changed"] },
        }),
        201,
      );
      const first = await registerInstitution(req, "HOOK-3");
      await changeStatus(req, first.id, "active");
      // The first delivery is now hanging at the receiver.
      await eventually(worker, () => receiver.received.length === 1);
      const second = await registerInstitution(req, "HOOK-4");
      const startedAt = performance.now();
      await changeStatus(req, second.id, "active");
      const tookMs = performance.now() - startedAt;
      assert.ok(tookMs < attemptTimeoutMs / 2, `the change took ${Math.round(tookMs)} ms`);
      const institution = await expectJson(await req("GET", `/api/institutions/${second.id}`), 200);
      assert.equal(institution.status, "active");

      await eventually(
        worker,
        async () =>
          (await deliveriesOf(req, created.id)).some((delivery) =>
            delivery.attempts.length > 0 && delivery.attempts[0].error !== null
          ),
      );
      const timedOut = (await deliveriesOf(req, created.id)).find((delivery) => delivery.attempts[0]?.error);
      assert.equal(
        timedOut.attempts[0].error,
        `No response from 127.0.0.1:${receiver.port} within ${attemptTimeoutMs} ms`,
      );
      assert.equal(timedOut.attempts[0].statusCode, null);
      assert.ok(timedOut.attempts[0].durationMs >= attemptTimeoutMs - 50);
    } finally {
      release();
      await worker.stop();
    }
  });
  await receiver.close();
});

Deno.test("private and loopback addresses are refused unless WEBHOOK_ALLOWED_HOSTS lists them; plain http only for listed hosts", async () => {
  await withApp({}, async (_t, req) => {
    const refusal = async (url: string) => {
      const body = await expectJson(
        await req("POST", "/api/webhooks", { body: { url, eventKinds: ["institution_status_changed"] } }),
        400,
      );
      return body.fields.url as string;
    };
    assert.match(
      await refusal("http://127.0.0.1:8080/hook"),
      /^Must use https; plain http is accepted only for a host listed in WEBHOOK_ALLOWED_HOSTS/,
    );
    assert.equal(
      await refusal("https://127.0.0.1:8443/hook"),
      "Refused: 127.0.0.1 is a loopback address, which webhooks may not reach unless WEBHOOK_ALLOWED_HOSTS lists 127.0.0.1:8443",
    );
    assert.match(await refusal("https://10.1.2.3/hook"), /^Refused: 10\.1\.2\.3 is a private address/);
    assert.match(await refusal("https://169.254.169.254/latest"), /link-local/);
    assert.match(await refusal("https://[::ffff:7f00:1]/hook"), /loopback/);
    assert.match(await refusal("https://[64:ff9b::a00:1]/hook"), /private \(NAT64/);
    assert.match(
      await refusal("https://localhost:8443/hook"),
      /^Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
    assert.match(await refusal("ftp://files.example/hook"), /Only http and https/);
    assert.match(await refusal("https://user:pw@hooks.example/"), /user name or password/);
  });
  // Listing one port allows that port alone.
  await withApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1:9" }, async (_t, req) => {
    const other = await expectJson(
      await req("POST", "/api/webhooks", {
        body: { url: "https://127.0.0.1:10/", eventKinds: ["participant_suspended"] },
      }),
      400,
    );
    assert.match(other.fields.url, /WEBHOOK_ALLOWED_HOSTS lists 127\.0\.0\.1:10/);
    await expectJson(
      await req("POST", "/api/webhooks", {
        body: { url: "http://127.0.0.1:9/", eventKinds: ["participant_suspended"] },
      }),
      201,
    );
  });
});

Deno.test("the guard applies again at delivery: a webhook whose host is no longer allowed gets a refused attempt", async () => {
  const receiver = startReceiver();
  const first = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" });
  try {
    const req = await first.desk();
    await expectJson(
      await req("POST", "/api/webhooks", {
        body: { url: `http://127.0.0.1:${receiver.port}/`, eventKinds: ["institution_status_changed"] },
      }),
      201,
    );
    const institution = await registerInstitution(req, "HOOK-5");
    await changeStatus(req, institution.id, "active");
    // The same database, restarted without the allowance.
    const second = await createTestApp({}, { dataDir: first.dataDir });
    try {
      const worker = startWebhookWorker(second.deps, {
        pollIntervalMs: 60_000,
        retryPolicy: { ...FAST_RETRIES, maxAttempts: 1 },
      });
      try {
        const [webhook] = await expectJson<any[]>(await req("GET", "/api/webhooks"), 200);
        await eventually(worker, async () => (await deliveriesOf(req, webhook.id))[0]?.status === "failed");
        const [delivery] = await deliveriesOf(req, webhook.id);
        assert.equal(
          delivery.attempts[0].error,
          `Refused: 127.0.0.1 is a loopback address, which webhooks may not reach unless WEBHOOK_ALLOWED_HOSTS lists 127.0.0.1:${receiver.port}`,
        );
        assert.equal(receiver.received.length, 0);
      } finally {
        await worker.stop();
      }
    } finally {
      await second.close();
    }
  } finally {
    await first.close();
    await receiver.close();
  }
});

Deno.test("webhook registration: 400 per field, 409 naming url on a duplicate, enable/disable and removal audited, administrators only", async () => {
  await withApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" }, async (t, req) => {
    const empty = await expectJson(await req("POST", "/api/webhooks", { body: {} }), 400);
    assert.ok(empty.fields.url);
    assert.ok(empty.fields.eventKinds);
    const bad = await expectJson(
      await req("POST", "/api/webhooks", {
        body: {
          url: "http://127.0.0.1:9/",
          eventKinds: ["registry_exploded"],
          description: "x".repeat(201),
        },
      }),
      400,
    );
    assert.match(
      bad.fields["eventKinds.0"] ?? bad.fields.eventKinds,
      /Must be one of institution_status_changed, participant_suspended, directory_edition_published/,
    );
    assert.ok(bad.fields.description);
    const twice = await expectJson(
      await req("POST", "/api/webhooks", {
        body: { url: "http://127.0.0.1:9/", eventKinds: ["participant_suspended", "participant_suspended"] },
      }),
      400,
    );
    assert.match(twice.fields.eventKinds, /once/);

    const body = { url: "http://127.0.0.1:9/a", eventKinds: ["participant_suspended"] };
    const created = await expectJson(await req("POST", "/api/webhooks", { body }), 201);
    const duplicate = await expectJson(await req("POST", "/api/webhooks", { body }), 409);
    assert.equal(duplicate.field, "url");

    const operator = await t.request("GET", "/api/webhooks", { cookie: req.operatorCookie });
    assert.equal(operator.status, 403);
    await operator.body?.cancel();
    const forOperator = await t.request("POST", "/api/webhooks", { cookie: req.operatorCookie, body });
    assert.equal(forOperator.status, 403);
    await forOperator.body?.cancel();

    const disabled = await expectJson(
      await req("PATCH", `/api/webhooks/${created.id}`, { body: { enabled: false } }),
      200,
    );
    assert.equal(disabled.enabled, false);
    assert.equal(disabled.description, null);
    assert.equal(disabled.url, body.url);
    const nothing = await expectJson(await req("PATCH", `/api/webhooks/${created.id}`, { body: {} }), 400);
    assert.match(nothing.message + JSON.stringify(nothing.fields ?? {}), /at least one field/);
    await expectJson(
      await req("PATCH", `/api/webhooks/${created.id}`, { body: { url: "https://127.0.0.1:9/b" } }),
      200,
    );

    assert.equal((await req("DELETE", `/api/webhooks/${created.id}`)).status, 204);
    assert.equal((await req("GET", `/api/webhooks/${created.id}/deliveries`)).status, 404);
    assert.equal((await req("DELETE", `/api/webhooks/${created.id}`)).status, 404);
    // The URL is free again once its webhook is removed.
    await expectJson(await req("POST", "/api/webhooks", { body }), 201);

    const actions = await t.deps.db.read.all<{ action: string }>(
      sql`SELECT action FROM audit_trail WHERE entity_type = 'webhook' AND entity_id = ${created.id} ORDER BY seq`,
    );
    assert.deepEqual(actions.map((row) => row.action), ["create", "update", "update", "delete"]);
  });
});

Deno.test("an event over the body limit, or a secret that no longer decrypts, fails at once without a request", async () => {
  const receiver = startReceiver();
  await withApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" }, async (t, req) => {
    const worker = startWebhookWorker(t.deps, { pollIntervalMs: 60_000, retryPolicy: FAST_RETRIES });
    try {
      const oversized = await expectJson(
        await req("POST", "/api/webhooks", {
          body: { url: `http://127.0.0.1:${receiver.port}/big`, eventKinds: ["institution_status_changed"] },
        }),
        201,
      );
      const undecryptable = await expectJson(
        await req("POST", "/api/webhooks", {
          body: { url: `http://127.0.0.1:${receiver.port}/key`, eventKinds: ["participant_suspended"] },
        }),
        201,
      );
      await t.deps.db.transaction(async (tx) => {
        await tx.run(sql`UPDATE webhooks SET secret_encrypted = 'not-a-jwe' WHERE id = ${undecryptable.id}`);
        await publishEvent(tx, {
          kind: "institution_status_changed",
          subjectType: "institution",
          subjectId: "oversized",
          summary: "An oversized event",
          data: { padding: "x".repeat(MAX_WEBHOOK_BODY_BYTES) },
        });
        await publishEvent(tx, {
          kind: "participant_suspended",
          subjectType: "institution",
          subjectId: "suspended",
          summary: "A suspension",
          data: {},
        });
      });
      const failedOnce = async (id: string) => {
        const [delivery] = await deliveriesOf(req, id);
        return delivery?.status === "failed" ? delivery : null;
      };
      await eventually(
        worker,
        async () =>
          (await failedOnce(oversized.id)) !== null && (await failedOnce(undecryptable.id)) !== null,
      );
      const big = (await failedOnce(oversized.id))!;
      assert.equal(big.attempts.length, 1);
      assert.equal(
        big.attempts[0].error,
        `The event is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes and is not sent`,
      );
      const keyless = (await failedOnce(undecryptable.id))!;
      assert.equal(keyless.attempts.length, 1);
      assert.match(keyless.attempts[0].error, /signing secret cannot be decrypted/);
      assert.equal(receiver.received.length, 0);
    } finally {
      await worker.stop();
    }
  });
  await receiver.close();
});
