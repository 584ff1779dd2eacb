/**
 * Hostile input on every API route the router holds: property-generated bodies, query strings and
 * path parameters never cause a 5xx, a rejected request changes nothing, and structurally broken
 * bodies are rejected with 4xx wherever an empty object is. In process, signed in as whoever may
 * call the route (the operator on operators' routes, else the first administrator), so that the
 * input gets past the role check.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { FINTECH_AUDIT_ENTITY } from "../../src/server/features/fintech/service.ts";
import type { Queryable } from "../../src/server/db/database.ts";
import { ruleFor } from "../../src/domain/access.ts";
import { createTestApp } from "../helpers/test_app.ts";
import { operatorOf, STAFF_PASSWORD } from "../helpers/staff.ts";
import { stateFingerprint } from "./support/db_state.ts";
import { hostileBody, hostileQuery, hostileSegment } from "./support/hostile.ts";
import { apiRoutes, fillParams, hasParams, MUTATING_METHODS, PUBLIC_PATHS } from "./support/routes.ts";

const CASES_PER_ROUTE = Number(Deno.env.get("FAULTS_CASES_PER_ROUTE") ?? "20");
const SEED = Number(Deno.env.get("FAULTS_SEED") ?? Date.now() % 2 ** 31);

const SETTLE_POLL_MS = 300;
const SETTLE_TIMEOUT_MS = 30_000;

/**
 * Waits until the work a 202 left running has ended: no backup is running (Back up now is the route
 * that answers 202), and two reads of the database's state a poll apart agree.
 */
async function untilSettled(db: Queryable) {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let previous = "";
  while (Date.now() < deadline) {
    const running = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM backup_runs WHERE status = 'running'`);
    const current = await stateFingerprint(db);
    if (running?.n === 0 && current === previous) return;
    previous = current;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
  throw new Error(`the work started by a 202 was still running after ${SETTLE_TIMEOUT_MS} ms`);
}

Deno.test({
  name:
    "every API route answers hostile bodies, queries and path parameters with < 500 and changes nothing when it refuses",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    console.log(
      `fast-check seed ${SEED} (FAULTS_SEED=${SEED} reproduces), ${CASES_PER_ROUTE} cases per route`,
    );
    const app = await createTestApp();
    try {
      let adminCookie = await app.login();
      const operator = await operatorOf(app);
      let operatorCookie = operator.cookie;
      const routes = apiRoutes(app.app);
      const accepted: string[] = [];
      for (const route of routes) {
        const mutating = MUTATING_METHODS.has(route.method);
        const isPublic = PUBLIC_PATHS.has(route.path);
        if (route.path === "/api/logout") continue; // Signing out with hostile input is still signing out.
        const asOperator = operatorsRoute(route.method, route.path);
        await t.step(`${route.method} ${route.path}`, async () => {
          const cookie = asOperator ? operatorCookie : adminCookie;
          const probe = await app.request(route.method, fillParams(route.path, "probe"), {
            cookie: isPublic ? undefined : cookie,
            ...(mutating ? { body: {} } : {}),
          });
          await probe.body?.cancel();
          const rejectsEmpty = probe.status >= 400 && probe.status < 500;
          let acceptedHere = 0;
          // The probe itself may start background work (Back up now answers 202 to an empty body).
          let startedInBackground = probe.status === 202;
          await fc.assert(
            fc.asyncProperty(
              hasParams(route.path) ? hostileSegment : fc.constant(""),
              fc.option(hostileQuery, { nil: undefined }),
              mutating ? hostileBody : fc.constant(null),
              async (segment, query, body) => {
                const path = fillParams(route.path, segment) + (query ? `?${query}` : "");
                const headers: Record<string, string> = isPublic ? {} : { cookie };
                if (body?.contentType) headers["content-type"] = body.contentType;
                // Work an earlier case's 202 left running must end before this case's snapshot.
                if (startedInBackground) await untilSettled(app.deps.db.read);
                const before = isPublic ? "" : await stateFingerprint(app.deps.db.read);
                const res = await app.app.request(`http://localhost${path}`, {
                  method: route.method,
                  headers,
                  body: body ? body.body : undefined,
                });
                const text = await res.text();
                const what = `${route.method} ${path.slice(0, 200)} ${
                  body ? `[${body.kind}] ${String(body.body).slice(0, 200)}` : ""
                }`;
                assert(res.status < 500, `${what} answered ${res.status}: ${text.slice(0, 300)}`);
                // A refused request changes nothing, and a read never writes, whatever it answers.
                if ((res.status >= 400 || !mutating) && !isPublic) {
                  const providerRefusal = mutating && res.status === 422 && providerOf(text) !== null;
                  if (providerRefusal) {
                    // The console passed the request on and the provider refused it: the attempt
                    // happened, so its two audit rows (requested, then the refusal) are its only trace.
                    await assertOnlyProviderAttemptAudited(app.deps.db.read, before, what);
                  } else {
                    assert.equal(
                      await stateFingerprint(app.deps.db.read),
                      before,
                      `${what} answered ${res.status} but changed the database`,
                    );
                  }
                }
                if (body?.malformed && rejectsEmpty) {
                  assert(
                    res.status >= 400 && res.status < 500,
                    `${what} answered ${res.status} to a malformed body`,
                  );
                }
                if (res.status < 300 && mutating) acceptedHere++;
                if (res.status === 202) startedInBackground = true;
              },
            ),
            { numRuns: CASES_PER_ROUTE, seed: SEED, endOnFailure: true },
          );
          if (acceptedHere > 0) accepted.push(`${route.method} ${route.path}: ${acceptedHere}`);
          // A 202 (Back up now) goes on after its answer: the next route's reads must not see it end.
          if (startedInBackground) await untilSettled(app.deps.db.read);
          // A generated request may have ended the session (e.g. a revocation route): sign in again.
          const me = await app.request("GET", "/api/auth/user", { cookie });
          await me.body?.cancel();
          if (me.status === 401 && asOperator) {
            operatorCookie = await app.login(operator.email, STAFF_PASSWORD);
          }
          if (me.status === 401 && !asOperator) adminCookie = await app.login();
        });
      }
      if (accepted.length > 0) {
        console.log(`mutations accepted (2xx) with generated input:\n  ${accepted.join("\n  ")}`);
      }
    } finally {
      await app.close();
    }
  },
});

/** A route only operators (of the staff who do things) may call: registering, moving money, requesting. */
function operatorsRoute(method: string, path: string): boolean {
  const rule = ruleFor(method, path);
  if (!rule || rule.roles === "signed-in") return false;
  return rule.roles.includes("operator") && !rule.roles.includes("administrator");
}

/** The provider named by a refusal's body (fintech routes), or null when the console refused itself. */
function providerOf(text: string): string | null {
  try {
    const body = JSON.parse(text);
    return typeof body?.provider === "string" ? body.provider : null;
  } catch {
    return null;
  }
}

/** Nothing changed but the audit trail, which gained exactly one provider operation's two rows. */
async function assertOnlyProviderAttemptAudited(db: Queryable, before: string, what: string) {
  const rows = await db.all<{ entityType: string; entityId: string; changes: string }>(sql`SELECT
    entity_type AS entityType, entity_id AS entityId, changes FROM audit_trail ORDER BY seq DESC LIMIT 2`);
  assert.equal(rows.length, 2, `${what}: no audit rows for the provider's refusal`);
  const [outcome, requested] = rows.map((row) => ({ ...row, changes: JSON.parse(row.changes) }));
  assert.equal(requested.entityType, FINTECH_AUDIT_ENTITY, `${what}: ${JSON.stringify(requested)}`);
  assert.equal(requested.changes.outcome, "requested", `${what}: ${JSON.stringify(requested)}`);
  assert.equal(outcome.entityId, requested.entityId, `${what}: two operations audited`);
  assert.equal(outcome.changes.outcome, "rejected", `${what}: ${JSON.stringify(outcome)}`);
  const advanced = before.replace(
    /\b(audit_trail|audit_max_seq)=(\d+)/g,
    (_, name, n) => `${name}=${Number(n) + 2}`,
  );
  assert.equal(await stateFingerprint(db), advanced, `${what} changed more than the audit trail`);
}

/** Spec 7's documented endpoints: the ones an API key may call, through the envelope. */
const KEY_ENDPOINTS = new Set([
  "GET /api/institutions",
  "GET /api/institutions/{}",
  "GET /api/routing-codes/{}",
  "GET /api/swift-codes/{}",
  "POST /api/iban/validate",
  "GET /api/search",
]);

Deno.test({
  name: "the documented endpoints answer hostile input from an API key with < 500 and change nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const app = await createTestApp();
    try {
      const routes = apiRoutes(app.app).filter((r) =>
        KEY_ENDPOINTS.has(`${r.method} ${fillParams(r.path, "{}")}`)
      );
      if (routes.length === 0) {
        console.log("API keys are not mounted yet: nothing to check");
        return;
      }
      const created = await app.request("POST", "/api/api-keys", {
        cookie: await app.login(),
        body: { name: "hostile" },
      });
      assert.equal(created.status, 201);
      const { key } = await created.json();
      for (const route of routes) {
        await t.step(`${route.method} ${route.path} with a key`, async () => {
          await fc.assert(
            fc.asyncProperty(
              hasParams(route.path) ? hostileSegment : fc.constant(""),
              fc.option(hostileQuery, { nil: undefined }),
              route.method === "POST" ? hostileBody : fc.constant(null),
              async (segment, query, body) => {
                const path = fillParams(route.path, segment) + (query ? `?${query}` : "");
                const headers: Record<string, string> = { authorization: `Bearer ${key}` };
                if (body?.contentType) headers["content-type"] = body.contentType;
                const before = await stateFingerprint(app.deps.db.read);
                const res = await app.app.request(`http://localhost${path}`, {
                  method: route.method,
                  headers,
                  body: body?.body,
                });
                const text = await res.text();
                const what = `${route.method} ${path.slice(0, 200)} ${body ? `[${body.kind}]` : ""}`;
                assert(res.status < 500, `${what} answered ${res.status}: ${text.slice(0, 300)}`);
                if (res.status >= 400 || route.method === "GET") {
                  assert.equal(
                    await stateFingerprint(app.deps.db.read),
                    before,
                    `${what} answered ${res.status} but changed the database`,
                  );
                }
              },
            ),
            { numRuns: CASES_PER_ROUTE, seed: SEED, endOnFailure: true },
          );
        });
      }
    } finally {
      await app.close();
    }
  },
});
