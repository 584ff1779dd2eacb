/**
 * The replicated topology with real processes (docs/deployment.md): sqld, headquarters and two
 * regional nodes, each regional node behind a delaying relay on loopback.
 */
import assert from "node:assert/strict";
import NativeDatabase from "libsql";
import { crossRegionLimitBound } from "../../src/domain/public_api.ts";
import { administer, createStaffSession, createUser, HTTP_STAFF_PASSWORD, openAccount } from "../helpers/http_staff.ts";
import { call, type Cluster, signIn, startCluster, TEST_SYNC_INTERVAL_MS, within } from "./support/cluster.ts";

/** Documented: a change made at one node is read at every other within the sync interval plus 1 s. */
const PROPAGATION_BOUND_MS = TEST_SYNC_INTERVAL_MS + 1_000;
/** A round trip over each regional link costs 2 × this. */
const ONE_WAY_DELAY_MS = 10;

let cluster: Cluster;
/** The first administrator's session at headquarters; it holds administrator alone. */
let hqCookie: string;
/** The operator's session at headquarters: the administrator moves no money. */
let hqOperator: string;
const OPERATOR_EMAIL = "operator@hq.test";

/** The operator signed in at `baseUrl` (one user, every node). */
function operatorAt(baseUrl: string): Promise<string> {
  return signIn(baseUrl, OPERATOR_EMAIL, HTTP_STAFF_PASSWORD);
}

async function createAccount(
  baseUrl: string,
  cookie: string,
  fields: { accountNumber: string; accountType: string; currency: string; currentBalance: string },
) {
  const body = { accountName: `Account ${fields.accountNumber}`, ...fields };
  // A funded account waits for an approver, whom the administrator's crew provides.
  return { id: await openAccount(baseUrl, cookie, body, hqCookie) };
}

async function balanceAt(baseUrl: string, cookie: string, accountId: string): Promise<string> {
  const accounts = await call(baseUrl, "GET", "/api/ledger-accounts", cookie);
  return accounts.body.find((account: { id: string }) => account.id === accountId).currentBalance;
}

function institution(name: string) {
  return {
    name,
    type: "commercial",
    registrationNumber: `REG-${crypto.randomUUID().slice(0, 8)}`,
    address: "1 Main Street",
    phoneNumber: "+1 555 0100",
    emailAddress: "ops@bank.example",
  };
}

Deno.test({
  name: "replication: one cluster of headquarters and two regional nodes",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    cluster = await startCluster({ oneWayDelayMs: ONE_WAY_DELAY_MS });
    const [north, south] = cluster.regions;
    try {
      hqCookie = await signIn(cluster.headquarters.baseUrl);
      hqOperator = await createStaffSession(cluster.headquarters.baseUrl, hqCookie, OPERATOR_EMAIL, ["operator"]);

      await t.step("every node reports its role, region and freshness", async () => {
        for (const [node, role, region] of [
          [cluster.headquarters.baseUrl, "headquarters", "headquarters"],
          [north.server.baseUrl, "regional", "north"],
          [south.server.baseUrl, "regional", "south"],
        ]) {
          const cookie = await signIn(node);
          const res = await call(node, "GET", "/api/system/replication", cookie);
          assert.equal(res.status, 200);
          assert.equal(res.body.role, role);
          assert.equal(res.body.region, region);
          assert.equal(res.body.primaryReachable, true);
          assert.equal(res.body.changesAccepted, true);
          assert.ok(typeof res.body.frameNo === "number" && res.body.frameNo > 0);
          assert.ok(Date.now() - Date.parse(res.body.lastSyncAt) < 5_000, res.body.lastSyncAt);
        }
        assert.equal((await call(north.server.baseUrl, "GET", "/api/system/replication", null)).status, 401);
      });

      await t.step("a registration at one region reads there at once and at the other within the bound", async () => {
        const northCookie = await operatorAt(north.server.baseUrl);
        const southCookie = await signIn(south.server.baseUrl);
        const created = await call(north.server.baseUrl, "POST", "/api/institutions", northCookie, institution("North Bank"));
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const id = created.body.id;
        // Read-your-writes: the same session's next read sees it, with no waiting on the caller's side.
        const here = await call(north.server.baseUrl, "GET", `/api/institutions/${id}`, northCookie);
        assert.equal(here.status, 200);
        assert.equal(here.body.name, "North Bank");
        const elapsedMs = await within(PROPAGATION_BOUND_MS, async () =>
          (await call(south.server.baseUrl, "GET", `/api/institutions/${id}`, southCookie)).status === 200
        );
        assert.ok(elapsedMs <= PROPAGATION_BOUND_MS, `${elapsedMs} ms`);
      });

      await t.step("40 concurrent 50.00 sweeps against 1000.00 over three nodes: exactly 20 succeed", async () => {
        const source = await createAccount(cluster.headquarters.baseUrl, hqOperator, {
          accountNumber: "STORM-SRC",
          accountType: "ledger",
          currency: "USD",
          currentBalance: "1000.00",
        });
        const target = await createAccount(cluster.headquarters.baseUrl, hqOperator, {
          accountNumber: "STORM-DST",
          accountType: "liquid",
          currency: "USD",
          currentBalance: "0.00",
        });
        const nodes = [cluster.headquarters.baseUrl, north.server.baseUrl, south.server.baseUrl];
        const cookies = await Promise.all(nodes.map((node) => operatorAt(node)));
        const results = await Promise.all(Array.from({ length: 40 }, (_, i) =>
          call(nodes[i % 3], "POST", "/api/balance-sweeps", cookies[i % 3], {
            sourceAccountId: source.id,
            targetAccountId: target.id,
            sweepAmount: "50.00",
          })));
        const statuses = results.map((res) => res.status);
        assert.equal(statuses.filter((status) => status === 201).length, 20, statuses.join(","));
        assert.equal(statuses.filter((status) => status >= 500).length, 0, statuses.join(","));
        assert.equal(statuses.filter((status) => status === 422).length, 20);
        const accounts = await call(cluster.headquarters.baseUrl, "GET", "/api/ledger-accounts", hqCookie);
        const balance = (id: string) => accounts.body.find((account: { id: string }) => account.id === id);
        assert.equal(balance(source.id).currentBalance, "0.00");
        assert.equal(balance(target.id).currentBalance, "1000.00");
        const reconciliation = await call(north.server.baseUrl, "GET", "/api/ledger-accounts/reconciliation", cookies[1]);
        assert.equal(reconciliation.body.ok, true, JSON.stringify(reconciliation.body));
      });

      await t.step("the same Idempotency-Key at two regions gives one sweep", async () => {
        const source = await createAccount(cluster.headquarters.baseUrl, hqOperator, {
          accountNumber: "IDEM-SRC",
          accountType: "ledger",
          currency: "EUR",
          currentBalance: "500.00",
        });
        const target = await createAccount(cluster.headquarters.baseUrl, hqOperator, {
          accountNumber: "IDEM-DST",
          accountType: "liquid",
          currency: "EUR",
          currentBalance: "0.00",
        });
        const body = { sourceAccountId: source.id, targetAccountId: target.id, sweepAmount: "75.00" };
        const headers = { "Idempotency-Key": `idem-${crypto.randomUUID()}` };
        const [atNorth, atSouth] = await Promise.all([
          call(north.server.baseUrl, "POST", "/api/balance-sweeps", await operatorAt(north.server.baseUrl), body, headers),
          call(south.server.baseUrl, "POST", "/api/balance-sweeps", await operatorAt(south.server.baseUrl), body, headers),
        ]);
        assert.ok(atNorth.status === 201 || atNorth.status === 200, JSON.stringify(atNorth.body));
        assert.ok(atSouth.status === 201 || atSouth.status === 200, JSON.stringify(atSouth.body));
        assert.equal(atNorth.body.id, atSouth.body.id);
        const accounts = await call(cluster.headquarters.baseUrl, "GET", "/api/ledger-accounts", hqCookie);
        const after = accounts.body.find((account: { id: string }) => account.id === source.id);
        assert.equal(after.currentBalance, "425.00");
      });

      await t.step("four eyes across regions: a sweep requested at north is approved at south, once; a disabled user is out everywhere", async () => {
        const hq = cluster.headquarters.baseUrl;
        // Two administrators exist by now (the crew's second one confirmed the approver of the
        // opening balances): a new user is a request the second administrator approves.
        const staff = async (node: string, email: string, roles: string[]) => {
          const { initialPassword } = await createUser(hq, hqCookie, email, roles);
          const first = await signIn(node, email, initialPassword);
          const changed = await call(node, "POST", "/api/auth/password", first, {
            currentPassword: initialPassword,
            newPassword: "regional-staff-password",
          });
          assert.equal(changed.status, 204, JSON.stringify(changed.body));
          return first;
        };
        const maker = await staff(north.server.baseUrl, "maker@north.test", ["operator"]);
        const checker = await staff(south.server.baseUrl, "checker@south.test", ["approver"]);
        const source = await createAccount(hq, hqOperator, {
          accountNumber: "FOUR-EYES-SRC",
          accountType: "ledger",
          currency: "GBP",
          currentBalance: "500.00",
        });
        const target = await createAccount(hq, hqOperator, {
          accountNumber: "FOUR-EYES-DST",
          accountType: "liquid",
          currency: "GBP",
          currentBalance: "0.00",
        });
        const thresholds = await administer(hq, hqCookie, "PUT", "/api/approval-settings", { thresholds: { GBP: "100.00" } });
        assert.equal(thresholds.status, 200, JSON.stringify(thresholds.json));
        const pending = await call(north.server.baseUrl, "POST", "/api/balance-sweeps", maker, {
          sourceAccountId: source.id,
          targetAccountId: target.id,
          sweepAmount: "200.00",
          requestReason: "Quarter-end liquidity",
        });
        assert.equal(pending.status, 202, JSON.stringify(pending.body));
        const id = pending.body.approvalRequest.id;
        // Nothing has moved while the request waits, as the maker's own region reads at once.
        assert.equal(await balanceAt(north.server.baseUrl, maker, source.id), "500.00");
        const approved = await call(south.server.baseUrl, "POST", `/api/approvals/${id}/approve`, checker, {
          reason: "Checked",
        });
        assert.equal(approved.status, 200, JSON.stringify(approved.body));
        const again = await call(south.server.baseUrl, "POST", `/api/approvals/${id}/approve`, checker, {
          reason: "Checked twice",
        });
        assert.ok(again.status >= 400 && again.status < 500, `${again.status} ${JSON.stringify(again.body)}`);
        // The approver's region reads the executed movement at once.
        assert.equal(await balanceAt(south.server.baseUrl, checker, source.id), "300.00");
        const reconciliation = await call(hq, "GET", "/api/ledger-accounts/reconciliation", hqCookie);
        assert.equal(reconciliation.body.ok, true, JSON.stringify(reconciliation.body));

        // Disabling the maker at headquarters ends their session at north within the same bound.
        const users = await call(hq, "GET", "/api/users", hqCookie);
        const makerId = users.body.find((user: { email: string }) => user.email === "maker@north.test").id;
        const disabled = await call(hq, "PATCH", `/api/users/${makerId}`, hqCookie, { disabled: true });
        assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
        const elapsedMs = await within(PROPAGATION_BOUND_MS, async () =>
          (await call(north.server.baseUrl, "GET", "/api/auth/user", maker)).status === 401
        );
        assert.ok(elapsedMs <= PROPAGATION_BOUND_MS, `${elapsedMs} ms`);
      });

      await t.step("a sign-out at one region ends that session at the other within the bound", async () => {
        const cookie = await signIn(north.server.baseUrl);
        await within(PROPAGATION_BOUND_MS, async () =>
          (await call(south.server.baseUrl, "GET", "/api/auth/user", cookie)).status === 200
        );
        const out = await call(north.server.baseUrl, "POST", "/api/logout", cookie);
        assert.ok(out.status === 303 || out.status === 200 || out.status === 204, String(out.status));
        assert.equal((await call(north.server.baseUrl, "GET", "/api/auth/user", cookie)).status, 401);
        const elapsedMs = await within(PROPAGATION_BOUND_MS, async () =>
          (await call(south.server.baseUrl, "GET", "/api/auth/user", cookie)).status === 401
        );
        assert.ok(elapsedMs <= PROPAGATION_BOUND_MS, `${elapsedMs} ms`);
      });

      await t.step(
        "every request served at a regional node reaches the primary's request log, once",
        async () => {
          const cookie = await signIn(north.server.baseUrl);
          const tag = `log-test-${crypto.randomUUID().slice(0, 8)}`;
          const requests = 1_200;
          const concurrency = 40;
          for (let start = 0; start < requests; start += concurrency) {
            const answers = await Promise.all(Array.from({ length: concurrency }, (_, k) =>
              call(
                north.server.baseUrl,
                "GET",
                `/api/institutions?limit=1&search=${tag}`,
                cookie,
                undefined,
                {
                  "user-agent": `${tag} ${start + k}`,
                },
              )));
            assert.deepEqual(
              new Set(answers.map((answer) => answer.status)),
              new Set([200]),
            );
          }
          // Headquarters' replica holds what the primary committed, within the sync interval.
          const replica = new NativeDatabase(`${cluster.dir}/nodes/headquarters/replica.db`, {
            readonly: true,
          });
          try {
            const logged = () =>
              replica.prepare(`SELECT count(*) AS rows, count(DISTINCT user_agent) AS agents,
              sum(endpoint = '/api/institutions' AND method = 'GET') AS paths,
              sum(response_status = 200 AND typeof(response_status) = 'integer') AS answered
              FROM api_logs WHERE user_agent LIKE ? || ' %'`).get([tag]) as Record<string, number>;
            await within(10_000, () => Promise.resolve(logged().rows >= requests));
            const { rows, agents, paths, answered } = logged();
            assert.deepEqual({ rows, agents, paths, answered }, {
              rows: requests,
              agents: requests,
              paths: requests,
              answered: requests,
            });
          } finally {
            replica.close();
          }
        },
      );

      await t.step("the hourly key limit across regions stays within the documented bound", async () => {
        const created = await call(cluster.headquarters.baseUrl, "POST", "/api/api-keys", hqCookie, {
          name: "cross-region",
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const auth = { authorization: `Bearer ${created.body.key}` };
        const nodes = [cluster.headquarters.baseUrl, north.server.baseUrl, south.server.baseUrl];
        // The key must have reached the replicas before they can authenticate it.
        for (const node of nodes.slice(1)) {
          await within(PROPAGATION_BOUND_MS, async () =>
            (await call(node, "GET", "/api/institutions?limit=1", null, undefined, auth)).status === 200
          );
        }
        const limit = 100; // GET /api/institutions
        const bound = crossRegionLimitBound(limit, 2);
        let served = 2;
        const statuses: number[] = [];
        // Waves of concurrent requests at every node, until each node has been refused.
        for (let wave = 0; wave < 12 && served < limit + 60; wave++) {
          const results = await Promise.all(Array.from({ length: 15 }, (_, i) =>
            call(nodes[i % 3], "GET", "/api/institutions?limit=1", null, undefined, auth)));
          for (const res of results) {
            statuses.push(res.status);
            if (res.status === 200) served += 1;
          }
        }
        assert.equal(statuses.filter((status) => status !== 200 && status !== 429).length, 0, statuses.join(","));
        assert.ok(served >= limit, `served ${served}, fewer than the limit ${limit}`);
        assert.ok(served <= bound, `served ${served}, more than the bound ${bound}`);
        const refused = await call(south.server.baseUrl, "GET", "/api/institutions?limit=1", null, undefined, auth);
        assert.equal(refused.status, 429);
      });
    } finally {
      await cluster.stop();
    }
  },
});
