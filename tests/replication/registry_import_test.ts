/**
 * The registry import on the replicated topology, with real sqld and consoles: a file that would change
 * more records than the replicated topology's limit is refused at its dry run; an import far larger
 * than one change's deadline allows (20,000 records, the limit) is approved at headquarters, which
 * only queues it; headquarters' applier applies it whole in one transaction of its own, and a
 * regional node reads it from its replica. A change made while it waits in the queue is not held up by it.
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { e2eCrew } from "../e2e/helpers.ts";
import { MAX_REPLICATED_IMPORT_CHANGES } from "../../src/server/features/registry_import/plan.ts";
import { directoryFile, generatedRecords } from "../helpers/directory_import.ts";
import { approveFiled } from "../helpers/http_staff.ts";
import { call, type Cluster, signIn, startCluster, within } from "./support/cluster.ts";

/** 4 records per institution: the institution, two routing codes and a BIC; as many as the limit allows. */
const INSTITUTIONS = MAX_REPLICATED_IMPORT_CHANGES / 4;
const RECORDS = 4 * INSTITUTIONS;
/** The applier looks every second; 20,000 records take a few seconds in one transaction. */
const APPLY_WAIT_MS = 60_000;
const REPLICATION_WAIT_MS = 15_000;

async function countOnPrimary(cluster: Cluster, sql: string): Promise<number> {
  const client = createClient({
    url: cluster.primary.url,
    authToken: (await Deno.readTextFile(`${cluster.dir}/keys/headquarters.token`)).trim(),
    intMode: "number",
  });
  try {
    return Number((await client.execute(sql)).rows[0][0]);
  } finally {
    client.close();
  }
}

async function submit(hq: string, operator: string, text: string) {
  const res = await fetch(`${hq}/api/directory/imports?fileName=registry.csv&requestReason=Initial%20load`, {
    method: "POST",
    headers: { cookie: operator, "content-type": "text/csv" },
    body: text,
  });
  const body = await res.json();
  assert.equal(res.status, 202, JSON.stringify(body).slice(0, 500));
  return body as { approvalRequest: { id: string }; import: { id: string; state: string } };
}

Deno.test({
  name:
    "registry import: a file over the replicated limit is refused at its dry run; 20,000 records approved at headquarters are applied whole by its applier and read at a regional node",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const cluster: Cluster = await startCluster({ regions: ["north"] });
    const hq = cluster.headquarters.baseUrl;
    const northUrl = cluster.regions[0].server.baseUrl;
    try {
      const crew = await e2eCrew(hq);
      // One institution more than the limit allows: refused at its dry run, before anyone approves it.
      const over = await fetch(`${hq}/api/directory/imports/dry-run`, {
        method: "POST",
        headers: { cookie: crew.operator, "content-type": "text/csv" },
        body: directoryFile(generatedRecords(MAX_REPLICATED_IMPORT_CHANGES / 4 + 1)),
      });
      const overReport = await over.json();
      assert.equal(over.status, 200);
      assert.equal(overReport.valid, false);
      assert.equal(overReport.errors[0].field, "file");
      assert.match(overReport.errors[0].message, /split it into files of at most 20,000 changes/);
      const pending = await submit(hq, crew.operator, directoryFile(generatedRecords(INSTITUTIONS)));
      const approved = await approveFiled(hq, crew.approver, pending);
      assert.equal(approved.status, 200, JSON.stringify(approved.json).slice(0, 500));
      const started = performance.now();
      let state = "";
      await within(APPLY_WAIT_MS, async () => {
        const answer = await call(hq, "GET", `/api/directory/imports/${pending.import.id}`, crew.operator);
        state = answer.body.state;
        assert.ok(
          ["approved", "applying", "applied"].includes(state),
          JSON.stringify(answer.body).slice(0, 500),
        );
        return state === "applied";
      });
      console.log(
        `${RECORDS} records applied ${Math.round(performance.now() - started)} ms after the approval`,
      );
      assert.equal(
        await countOnPrimary(
          cluster,
          "SELECT count(*) FROM institutions WHERE registration_number LIKE 'IMP-%'",
        ),
        INSTITUTIONS,
      );
      assert.equal(
        await countOnPrimary(cluster, "SELECT count(*) FROM routing_codes WHERE code LIKE 'IMP%'"),
        2 * INSTITUTIONS,
      );
      assert.equal(
        await countOnPrimary(cluster, "SELECT count(*) FROM swift_codes WHERE bic_code LIKE 'I%DEFF'"),
        INSTITUTIONS,
      );
      assert.equal(
        await countOnPrimary(cluster, "SELECT count(*) FROM registry_versions WHERE summary = 'Imported'"),
        RECORDS,
        "every record with its first version",
      );
      assert.equal(
        await countOnPrimary(
          cluster,
          "SELECT count(*) FROM audit_trail WHERE entity_type = 'registry_import' AND action = 'apply'",
        ),
        1,
        "applied once",
      );

      const northCookie = await signIn(northUrl);
      await within(REPLICATION_WAIT_MS, async () => {
        const answer = await call(
          northUrl,
          "GET",
          `/api/directory/imports/${pending.import.id}`,
          northCookie,
        );
        return answer.status === 200 && answer.body.state === "applied";
      });
      const found = await call(northUrl, "GET", "/api/institutions?search=IMP-005000", northCookie);
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.deepEqual(
        (found.body.data ?? found.body.items ?? found.body).map((row: { registrationNumber: string }) =>
          row.registrationNumber
        ),
        ["IMP-005000"],
      );
    } finally {
      await cluster.stop();
    }
  },
});
