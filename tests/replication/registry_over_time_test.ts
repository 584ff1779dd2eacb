/**
 * The registry over time on the replicated topology, with real sqld and consoles: a rename requested
 * at a regional node and approved to take effect a few seconds ahead (four-eyes, institution_change)
 * takes effect at its time without anyone acting, applied once by headquarters
 * (one scheduled_change_applied audit row), and a regional node cut off from the primary and from
 * headquarters answers the new state at its time and any as-of read from its own replica. The same
 * node serves the published directory editions and their files with headquarters' bytes and ETags.
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { SCHEDULED_CHANGE_ACTION } from "../../src/server/registry_history/scheduler.ts";
import { e2eCrew } from "../e2e/helpers.ts";
import { approveFiled, type StaffCrew } from "../helpers/http_staff.ts";
import { call, type Cluster, replicationState, signIn, startCluster, within } from "./support/cluster.ts";

/** Far enough ahead for the request, its approval and the version's replication before the cut. */
const SCHEDULED_AHEAD_MS = 8_000;
const REPLICATION_WAIT_MS = 15_000;
/** The scheduler looks every second; headquarters writes the change within a few of its time. */
const APPLY_WAIT_MS = 10_000;
/** How long headquarters' publisher may take to build a small edition in the background. */
const PUBLISH_WAIT_MS = 20_000;
/**
 * A node answers a change at its instant, within its clock's error and one poll's round trip on a
 * busy machine; cut off, nothing else could bring it the change.
 */
const AT_ITS_TIME_MS = 2_000;

const BANK = {
  name: "Timekeeper Bank",
  type: "commercial",
  registrationNumber: "REG-TIME-1",
  address: "1 Clock Street",
  phoneNumber: "+1 202 555 0133",
  emailAddress: "desk@timekeeper.test",
};

async function primaryClient(cluster: Cluster) {
  return createClient({
    url: cluster.primary.url,
    authToken: (await Deno.readTextFile(`${cluster.dir}/keys/headquarters.token`)).trim(),
    intMode: "number",
  });
}

/**
 * A rename from `validFrom`, requested at `requestAt` (a regional node forwards it to headquarters)
 * and approved by a second person at headquarters: the version is recorded on the primary then.
 */
async function scheduleRename(
  requestAt: string,
  hq: string,
  crew: StaffCrew,
  id: string,
  name: string,
  validFrom: string,
): Promise<void> {
  const filed = await call(requestAt, "PATCH", `/api/institutions/${id}`, crew.operator, {
    name,
    effectiveFrom: validFrom,
    requestReason: "Renamed after the merger",
  });
  assert.equal(filed.status, 202, JSON.stringify(filed.body));
  const approved = await approveFiled(hq, crew.approver, filed.body);
  assert.equal(approved.status, 200, JSON.stringify(approved.json));
}

async function countOnPrimary(cluster: Cluster, sql: string, args: string[]): Promise<number> {
  const client = await primaryClient(cluster);
  try {
    return Number((await client.execute({ sql, args })).rows[0][0]);
  } finally {
    client.close();
  }
}

interface Download {
  status: number;
  etag: string | null;
  sha256: string;
}

/** A file as a node serves it: status, ETag and a digest of its bytes. */
async function download(
  baseUrl: string,
  credentials: { cookie: string } | { authorization: string },
  path: string,
  headers: Record<string, string> = {},
): Promise<Download> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { ...credentials, ...headers } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return {
    status: res.status,
    etag: res.headers.get("etag"),
    sha256: Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join(""),
  };
}

const nameAt = async (baseUrl: string, cookie: string, id: string, asOf?: string) => {
  const res = await call(
    baseUrl,
    "GET",
    `/api/institutions/${id}${asOf ? `?asOf=${encodeURIComponent(asOf)}` : ""}`,
    cookie,
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.name as string;
};

Deno.test({
  name:
    "registry over time: a scheduled change takes effect once at headquarters and at its time on a cut-off regional node, which serves as-of reads and directory editions locally",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const cluster = await startCluster({ regions: ["north"] });
    const [north] = cluster.regions;
    const northUrl = north.server.baseUrl;
    const hq = cluster.headquarters.baseUrl;
    try {
      const crew = await e2eCrew(hq);
      const created = await call(hq, "POST", "/api/institutions", crew.operator, BANK);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.id as string;
      const registeredAt = new Date().toISOString();
      const northCookie = await signIn(northUrl);
      await within(
        REPLICATION_WAIT_MS,
        async () => (await call(northUrl, "GET", `/api/institutions/${id}`, northCookie)).status === 200,
      );

      const validFrom = new Date(Date.now() + SCHEDULED_AHEAD_MS).toISOString();
      await scheduleRename(northUrl, hq, crew, id, "Timekeeper Bank AG", validFrom);
      // The version reaches north's replica: asked as of its instant, north answers the new name.
      await within(
        REPLICATION_WAIT_MS,
        async () => (await nameAt(northUrl, northCookie, id, validFrom)) === "Timekeeper Bank AG",
      );
      assert.ok(
        Date.now() < Date.parse(validFrom),
        "the version reached north before its time: lengthen SCHEDULED_AHEAD_MS",
      );

      await t.step(
        "before its time: every node answers the old name now and the new one as of its time",
        async () => {
          assert.equal(await nameAt(hq, crew.operator, id), BANK.name);
          assert.equal(await nameAt(northUrl, northCookie, id), BANK.name);
          assert.equal(await nameAt(hq, crew.operator, id, validFrom), "Timekeeper Bank AG");
        },
      );

      await t.step(
        "cut off from the primary and headquarters, north answers the new name at its time",
        async () => {
          north.primaryLink.down();
          north.headquartersLink.down();
          try {
            await within(
              SCHEDULED_AHEAD_MS + APPLY_WAIT_MS,
              async () => (await nameAt(northUrl, northCookie, id)) === "Timekeeper Bank AG",
            );
            // North keeps the primary's time (src/server/topology/clock.ts): this process's clock minus
            // north's measured offset, in whole milliseconds (so up to 1 ms rounding), is north's now.
            const answeredMs = Date.now();
            const offsetMs = (await replicationState(northUrl, northCookie)).clockOffsetMs ?? 0;
            const lateMs = answeredMs - offsetMs - Date.parse(validFrom);
            assert.ok(lateMs >= -1, `north answered the new name ${-lateMs} ms before its time on its clock`);
            assert.ok(lateMs < AT_ITS_TIME_MS, `north answered the new name ${lateMs} ms after its time`);
            // As-of reads resolve from north's replica alone: the past and the future.
            assert.equal(await nameAt(northUrl, northCookie, id, registeredAt), BANK.name);
            assert.equal(
              await nameAt(northUrl, northCookie, id, new Date(Date.parse(validFrom) - 1).toISOString()),
              BANK.name,
            );
            assert.equal(await nameAt(northUrl, northCookie, id, validFrom), "Timekeeper Bank AG");
            const listed = await call(
              northUrl,
              "GET",
              `/api/institutions?search=REG-TIME-1&asOf=${encodeURIComponent(validFrom)}`,
              northCookie,
            );
            assert.equal(listed.status, 200, JSON.stringify(listed.body));
            assert.deepEqual(
              listed.body.map((row: { name: string }) => row.name),
              ["Timekeeper Bank AG"],
            );
            const before = await call(
              northUrl,
              "GET",
              `/api/institutions/${id}?asOf=2000-01-01`,
              northCookie,
            );
            assert.equal(before.status, 404, "before its registration the institution did not exist");
            const bad = await call(northUrl, "GET", `/api/institutions/${id}?asOf=yesterday`, northCookie);
            assert.equal(bad.status, 400);
            // North knows it is cut off, and still answers from its replica.
            await within(
              REPLICATION_WAIT_MS,
              async () =>
                (await call(northUrl, "GET", "/api/system/replication", northCookie)).body
                  .primaryReachable ===
                  false,
            );
            assert.equal(await nameAt(northUrl, northCookie, id), "Timekeeper Bank AG");
          } finally {
            north.primaryLink.up();
            north.headquartersLink.up();
          }
        },
      );

      await t.step(
        "headquarters applies the change once, without anyone acting; north's current row follows",
        async () => {
          await within(
            APPLY_WAIT_MS,
            async () =>
              (await countOnPrimary(cluster, "SELECT count(*) FROM institutions WHERE id = ? AND name = ?", [
                id,
                "Timekeeper Bank AG",
              ])) === 1,
          );
          // Several scheduler rounds later, still one application.
          await new Promise((resolve) => setTimeout(resolve, 3_000));
          const applied = await countOnPrimary(
            cluster,
            "SELECT count(*) FROM audit_trail WHERE action = ? AND entity_id = ?",
            [SCHEDULED_CHANGE_ACTION, id],
          );
          assert.equal(applied, 1, "one scheduled_change_applied audit row");
          const pending = await countOnPrimary(
            cluster,
            "SELECT count(*) FROM registry_versions WHERE entity_id = ? AND applied_at IS NULL",
            [id],
          );
          assert.equal(pending, 0);
          await within(
            REPLICATION_WAIT_MS,
            async () =>
              (await call(northUrl, "GET", `/api/institutions?search=REG-TIME-1`, northCookie)).body
                .some((row: { name: string }) => row.name === "Timekeeper Bank AG"),
          );
        },
      );

      await t.step(
        "cut off, north serves the directory's editions and files with headquarters' bytes and ETags, to staff and API keys",
        async () => {
          const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
          const filed = await call(hq, "POST", "/api/directory/editions", crew.operator, {
            effectiveDate: tomorrow,
            reason: "Edition for the regional drill",
          });
          assert.equal(filed.status, 202, JSON.stringify(filed.body));
          const approved = await approveFiled(hq, crew.approver, filed.body);
          assert.equal(approved.status, 200, JSON.stringify(approved.json));
          // Headquarters' publisher builds the edition in the background, in bounded transactions.
          let editions = await call(hq, "GET", "/api/directory/editions", crew.operator);
          await within(PUBLISH_WAIT_MS, async () => {
            editions = await call(hq, "GET", "/api/directory/editions", crew.operator);
            return editions.body[0]?.status === "published";
          });
          assert.equal(editions.status, 200);
          const paths: string[] = [
            ...editions.body[0].files.map((file: { url: string }) => file.url),
            "/api/directory/public-key.pem",
            "/api/directory/public-key.jwk",
          ];
          const atHq = await Promise.all(paths.map((path) => download(hq, { cookie: crew.operator }, path)));
          assert.deepEqual(atHq.filter((file) => file.status !== 200 || !file.etag), []);
          await within(
            REPLICATION_WAIT_MS,
            async () =>
              (await call(northUrl, "GET", "/api/directory/editions", northCookie)).body.length ===
                editions.body.length,
          );
          // A bank's API key, made at headquarters; north knows it once its replica has it.
          const created = await call(hq, "POST", "/api/api-keys", await signIn(hq), {
            name: "Regional bank download",
          });
          assert.equal(created.status, 201, JSON.stringify(created.body));
          const apiKey = { authorization: `Bearer ${created.body.key}` };
          await within(
            REPLICATION_WAIT_MS,
            async () => (await download(northUrl, apiKey, paths[0])).status === 200,
          );

          north.primaryLink.down();
          north.headquartersLink.down();
          try {
            const listed = await call(northUrl, "GET", "/api/directory/editions", northCookie);
            assert.deepEqual(listed.body, editions.body);
            for (const [n, path] of paths.entries()) {
              assert.deepEqual(await download(northUrl, { cookie: northCookie }, path), atHq[n], path);
              const revalidated = await download(northUrl, { cookie: northCookie }, path, {
                "if-none-match": atHq[n].etag!,
              });
              assert.equal(revalidated.status, 304, path);
            }
            await within(
              REPLICATION_WAIT_MS,
              async () =>
                (await call(northUrl, "GET", "/api/system/replication", northCookie)).body
                  .primaryReachable === false,
            );
            assert.deepEqual(
              await download(northUrl, { cookie: northCookie }, paths[0]),
              atHq[0],
              "served once north knows it is cut off",
            );
            // The API key's downloads too: its hourly limit is counted against north's last total.
            for (const [n, path] of paths.entries()) {
              assert.deepEqual(await download(northUrl, apiKey, path), atHq[n], `${path} with an API key`);
            }
            const enveloped = await fetch(`${northUrl}/api/directory/editions`, { headers: apiKey });
            assert.equal(enveloped.status, 200);
            assert.deepEqual((await enveloped.json()).data, editions.body);
          } finally {
            north.primaryLink.up();
            north.headquartersLink.up();
          }
        },
      );
    } finally {
      await cluster.stop();
    }
  },
});
