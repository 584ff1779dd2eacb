import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { base64url, flattenedVerify, importJWK, importSPKI } from "jose";
import { routingCodes, swiftCodes } from "../../db/schema.ts";
import { parseDirectoryCsv } from "../../src/domain/directory_csv.ts";
import { countRows } from "../../src/domain/directory_files.ts";
import { deltaBetween } from "../helpers/directory_reference.ts";
import { DOCUMENTED_ENDPOINTS } from "../../src/domain/public_api.ts";
import { publishQueuedEdition } from "../../src/server/features/directory/publisher.ts";
import { REGISTRY_PAGE_SQL } from "../../src/server/features/directory/records.ts";
import type { Database } from "../../src/server/db/database.ts";
import { recordMissingInitialVersions } from "../../src/server/registry_history/initial_versions.ts";
import { recordVersion } from "../../src/server/registry_history/versions.ts";
import { approvePending, secondPerson } from "../helpers/staff.ts";
import { createTestApp, type Desk, expectJson, type TestApp } from "../helpers/test_app.ts";
import { createKey, withKey } from "./api_access_helpers.ts";
import { insertInstitution } from "./codes_helpers.ts";

const DAY_MS = 86_400_000;
const FILES = ["full.csv", "delta.csv", "full.txt"];

/** A day ahead of the app's clock, as a date: editions must follow each other in time. */
function dayAhead(t: TestApp, days: number): string {
  return new Date(t.deps.clock.now() + days * DAY_MS).toISOString().slice(0, 10);
}

interface Registry {
  bankA: string;
  bankB: string;
  closingCode: string;
}

/** Two banks, two routing codes and a BIC, with their first versions as the start records them. */
async function seedRegistry(t: TestApp): Promise<Registry> {
  const bankA = await insertInstitution(t, "North Bank, Ltd", { registrationNumber: "REG-NORTH" });
  const bankB = await insertInstitution(t, 'South "Savings" Bank', { registrationNumber: "REG-SOUTH" });
  await t.deps.db.transaction(async (tx) => {
    await tx.insert(routingCodes).values([
      {
        id: crypto.randomUUID(),
        institutionId: bankA,
        code: "ABC00000145",
        prefix: "ABC",
        branchCode: "001",
      },
      {
        id: crypto.randomUUID(),
        institutionId: bankB,
        code: "ABC00000242",
        prefix: "ABC",
        branchCode: "002",
      },
    ]);
    await tx.insert(swiftCodes).values({
      id: crypto.randomUUID(),
      institutionId: bankA,
      bicCode: "NORTUS33",
      bankCode: "NORT",
      countryCode: "US",
      locationCode: "33",
    });
  });
  await recordMissingInitialVersions(t.deps.db);
  return { bankA, bankB, closingCode: "ABC00000145" };
}

/**
 * Requests an edition, approves it, and runs the publisher as headquarters' background task would:
 * until then the list shows the edition as publishing, without files.
 */
async function publish(req: Desk, approverCookie: string, effectiveDate: string): Promise<number> {
  const answer = await req("POST", "/api/directory/editions", {
    body: { effectiveDate, reason: "Quarterly edition" },
  });
  const approved = await approvePending(req.testApp, approverCookie, answer);
  assert.equal(approved.resultEntityType, "directory_edition");
  const number = Number(approved.resultEntityId);
  const [queued] = await expectJson(await req("GET", "/api/directory/editions"), 200);
  assert.deepEqual([queued.number, queued.status, queued.files], [number, "publishing", []]);
  const edition = await publishQueuedEdition(req.testApp.deps);
  assert.equal(edition?.number, number);
  return number;
}

interface Published {
  t: TestApp;
  req: Desk;
  approverCookie: string;
  registry: Registry;
}

/** A fresh app with the seeded registry and its first edition published (effective tomorrow). */
async function withFirstEdition(fn: (published: Published) => Promise<void>): Promise<void> {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const approver = await secondPerson(t);
    const registry = await seedRegistry(t);
    assert.equal(await publish(req, approver.cookie, dayAhead(t, 1)), 1);
    await fn({ t, req, approverCookie: approver.cookie, registry });
  } finally {
    await t.close();
  }
}

async function download(req: Desk, number: number, name: string): Promise<Response> {
  const res = await req("GET", `/api/directory/editions/${number}/${name}`);
  assert.equal(res.status, 200, `${name}: ${res.status}`);
  return res;
}

async function fullRecords(req: Desk, number: number) {
  const parsed = parseDirectoryCsv(await (await download(req, number, "full.csv")).text());
  assert.deepEqual(parsed.errors, []);
  return parsed.rows;
}

Deno.test("an edition's files match its manifest, and the manifest's signature verifies with openssl and jose", async () => {
  const t = await createTestApp();
  const folder = await Deno.makeTempDir({ prefix: "cbr-directory-" });
  try {
    const req = await t.desk();
    const approver = await secondPerson(t);
    await seedRegistry(t);
    const number = await publish(req, approver.cookie, dayAhead(t, 1));
    assert.equal(number, 1);
    const manifestBytes = new Uint8Array(await (await download(req, 1, "manifest.json")).arrayBuffer());
    const manifest = JSON.parse(new TextDecoder().decode(manifestBytes));
    assert.equal(manifest.edition, 1);
    assert.equal(manifest.previousEdition, null);
    assert.deepEqual(manifest.files.map((file: { name: string }) => file.name), FILES);
    for (const file of manifest.files) {
      const bytes = new Uint8Array(await (await download(req, 1, file.name)).arrayBuffer());
      assert.equal(bytes.length, file.size, file.name);
      assert.equal(createHash("sha256").update(bytes).digest("hex"), file.sha256, file.name);
    }
    const full = await fullRecords(req, 1);
    assert.deepEqual(manifest.counts.full, countRows(full));
    assert.deepEqual(manifest.counts.full.INST, { total: 2, A: 2, M: 0, D: 0, U: 0 });
    assert.deepEqual(manifest.counts.full.RTC.total, 2);
    assert.deepEqual(manifest.counts.full.BIC.total, 1);
    const code = full.find((row) => row.record.key === "ABC00000145")!;
    assert.equal(code.record.institution_key, "REG-NORTH");
    assert.equal(code.record.name, "North Bank, Ltd");

    const signature = new Uint8Array(await (await download(req, 1, "manifest.json.sig")).arrayBuffer());
    assert.equal(signature.length, 64);
    const pem = await (await req("GET", "/api/directory/public-key.pem")).text();
    await Deno.writeFile(`${folder}/manifest.json`, manifestBytes);
    await Deno.writeFile(`${folder}/manifest.json.sig`, signature);
    await Deno.writeTextFile(`${folder}/directory-key.pem`, pem);
    assert.equal(await opensslVerifies(folder), true);
    await Deno.writeFile(`${folder}/manifest.json`, new TextEncoder().encode(manifest.edition + "tampered"));
    assert.equal(await opensslVerifies(folder), false, "a changed manifest does not verify");

    const jws = await (await download(req, 1, "manifest.json.jws")).text();
    const [protectedHeader, payload, jwsSignature] = jws.split(".");
    assert.equal(payload, "", "the JWS carries the manifest detached");
    const verified = await flattenedVerify(
      { protected: protectedHeader, payload: base64url.encode(manifestBytes), signature: jwsSignature },
      await importSPKI(pem, "EdDSA"),
    );
    assert.equal(verified.protectedHeader?.alg, "EdDSA");
    assert.equal(verified.protectedHeader?.kid, manifest.keyId);
    const jwk = await expectJson(await req("GET", "/api/directory/public-key.jwk"), 200);
    await flattenedVerify(
      { protected: protectedHeader, payload: base64url.encode(manifestBytes), signature: jwsSignature },
      await importJWK(jwk, "EdDSA"),
    );
    const keyFile = await Deno.stat(`${t.dataDir}/directory-signing-key.pem`);
    assert.equal(keyFile.mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(folder, { recursive: true });
    await t.close();
  }
});

async function opensslVerifies(folder: string): Promise<boolean> {
  const output = await new Deno.Command("openssl", {
    args: [
      "pkeyutl",
      "-verify",
      "-pubin",
      "-inkey",
      "directory-key.pem",
      "-rawin",
      "-in",
      "manifest.json",
      "-sigfile",
      "manifest.json.sig",
    ],
    cwd: folder,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  if (output.success) assert.match(text, /Signature Verified Successfully/);
  return output.success;
}

Deno.test("a published edition never changes: the database refuses, and the next publication is edition n+1", () =>
  withFirstEdition(async ({ t, req, approverCookie }) => {
    const manifestBefore = await (await download(req, 1, "manifest.json")).text();
    const db = t.deps.db;
    const refusals = [
      sql`UPDATE directory_editions SET reason = 'changed' WHERE number = 1`,
      sql`DELETE FROM directory_editions WHERE number = 1`,
      sql`UPDATE directory_edition_files SET sha256 = ${"0".repeat(64)} WHERE edition_number = 1`,
      sql`DELETE FROM directory_edition_files WHERE edition_number = 1`,
      sql`UPDATE directory_file_chunks SET data = x'00' WHERE edition_number = 1`,
      sql`DELETE FROM directory_file_chunks WHERE edition_number = 1`,
      sql`INSERT INTO directory_edition_files (edition_number, name, content_type, size_bytes, sha256)
      VALUES (1, 'extra.csv', 'text/csv', 0, ${"0".repeat(64)})`,
      sql`INSERT INTO directory_file_chunks (edition_number, name, seq, data) VALUES (1, 'full.csv', 99, x'00')`,
    ];
    for (const statement of refusals) {
      await assert.rejects(db.transaction((tx) => tx.run(statement)), (error: Error) => {
        assert.match(String(error.cause ?? error), /never changes/);
        return true;
      });
    }
    const again = await expectJson(
      await req("POST", "/api/directory/editions", {
        body: { effectiveDate: dayAhead(t, 1), reason: "Again" },
      }),
      409,
    );
    assert.equal(again.field, "effectiveDate");
    assert.equal(await publish(req, approverCookie, dayAhead(t, 2)), 2);
    assert.equal(await (await download(req, 1, "manifest.json")).text(), manifestBefore);
    const manifest2 = JSON.parse(await (await download(req, 2, "manifest.json")).text());
    assert.equal(manifest2.previousEdition, 1);
    assert.deepEqual(manifest2.counts.delta.INST, { total: 0, A: 0, M: 0, D: 0, U: 0 });
    const list = await expectJson(await req("GET", "/api/directory/editions"), 200);
    assert.deepEqual(list.map((edition: { number: number }) => edition.number), [2, 1]);
  }));

Deno.test("a terminated code is flagged in one edition and deleted in the next; each delta is the diff of the full files", () =>
  withFirstEdition(async ({ t, req, approverCookie, registry }) => {
    const [code] = await t.deps.db.read.select().from(routingCodes).where(sql`code = ${registry.closingCode}`)
      .all();
    const terminatedAt = `${dayAhead(t, 1)}T12:00:00.000Z`;
    await t.deps.db.transaction((tx) =>
      recordVersion(tx, {
        entityType: "routing_code",
        entityId: code.id,
        validFrom: terminatedAt,
        changes: { terminatedAt, successorCode: "ABC00000242" },
        summary: "Terminated, succeeded by ABC00000242",
        requestedBy: null,
        approvedBy: null,
      }, t.deps.clock.now())
    );
    const preview = await expectJson(
      await req("GET", `/api/directory/next?effectiveDate=${dayAhead(t, 2)}`),
      200,
    );
    assert.equal(preview.number, 2);
    assert.deepEqual(
      preview.changes.map((row: { changeFlag: string; key: string }) => [row.changeFlag, row.key]),
      [
        ["M", registry.closingCode],
      ],
    );
    await publish(req, approverCookie, dayAhead(t, 2));
    await publish(req, approverCookie, dayAhead(t, 3));
    const fulls = [await fullRecords(req, 1), await fullRecords(req, 2), await fullRecords(req, 3)];
    const flagged = fulls[1].find((row) => row.record.key === registry.closingCode)!;
    assert.deepEqual([flagged.flag, flagged.record.status, flagged.record.deletion_announced], [
      "M",
      "terminated",
      "Y",
    ]);
    assert.equal(flagged.record.successor_key, "ABC00000242");
    assert.equal(fulls[2].find((row) => row.record.key === registry.closingCode), undefined);
    for (const number of [2, 3]) {
      const delta = parseDirectoryCsv(await (await download(req, number, "delta.csv")).text());
      const expected = deltaBetween(
        fulls[number - 2].map((row) => row.record),
        fulls[number - 1].map((row) => row.record),
      );
      assert.deepEqual(
        delta.rows.map(({ flag, record }) => ({ flag, record })),
        expected.map(({ flag, record }) => ({ flag, record: { ...record } })),
      );
    }
    const deleted = parseDirectoryCsv(await (await download(req, 3, "delta.csv")).text()).rows;
    assert.deepEqual(deleted.map((row) => [row.flag, row.record.key]), [["D", registry.closingCode]]);
  }));

Deno.test("downloads carry a strong ETag and answer If-None-Match with 304", () =>
  withFirstEdition(async ({ req }) => {
    const manifest = JSON.parse(await (await download(req, 1, "manifest.json")).text());
    const first = await download(req, 1, "full.csv");
    assert.equal(first.headers.get("content-type"), "text/csv; charset=utf-8");
    const etag = first.headers.get("etag")!;
    assert.equal(etag, `"${manifest.files[0].sha256}"`);
    await first.body?.cancel();
    const again = await req("GET", "/api/directory/editions/1/full.csv", {
      headers: { "if-none-match": etag },
    });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get("etag"), etag);
    const stale = await req("GET", "/api/directory/editions/1/full.csv", {
      headers: { "if-none-match": '"other"' },
    });
    assert.equal(stale.status, 200);
    await stale.body?.cancel();
    for (const path of ["/api/directory/editions/9/full.csv", "/api/directory/editions/9/manifest.json"]) {
      await expectJson(await req("GET", path), 404);
    }
    await expectJson(await req("GET", "/api/directory/editions/x/full.csv"), 400);
  }));

Deno.test("an API key downloads the files as they are, the list in the envelope, within its own hourly limit", () =>
  withFirstEdition(async ({ t, req }) => {
    const { key } = await createKey(t, req.adminCookie);
    const asKey = withKey(t, key);
    const list = await expectJson(await asKey("GET", "/api/directory/editions"), 200);
    assert.equal(list.success, true);
    assert.equal(list.data[0].number, 1);
    const manifestText = await (await asKey("GET", "/api/directory/editions/1/manifest.json")).text();
    assert.equal(manifestText, await (await download(req, 1, "manifest.json")).text(), "not in the envelope");
    const limit = DOCUMENTED_ENDPOINTS.find((endpoint) =>
      endpoint.path === "/api/directory/editions/{n}/full.csv"
    )!
      .limitPerHour;
    for (let i = 0; i < limit; i++) {
      const res = await asKey("GET", "/api/directory/editions/1/full.csv");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("ratelimit-limit"), String(limit));
      await res.body?.cancel();
    }
    const refused = await expectJson(await asKey("GET", "/api/directory/editions/1/full.csv"), 429);
    assert.equal(refused.success, false);
    assert.equal(
      (await asKey("GET", "/api/directory/editions/1/delta.csv")).status,
      200,
      "each file has its own limit",
    );
    await expectJson(
      await t.request("POST", "/api/directory/editions", {
        headers: { authorization: `Bearer ${key}` },
        body: { effectiveDate: dayAhead(t, 2), reason: "x" },
      }),
      403,
    );
  }));

Deno.test("only operators prepare an edition, and its date and reason are checked per field", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const approver = await secondPerson(t);
    const refused = await expectJson(
      await t.request("POST", "/api/directory/editions", {
        cookie: approver.cookie,
        body: { effectiveDate: dayAhead(t, 1), reason: "x" },
      }),
      403,
    );
    assert.match(refused.message, /operators/);
    const invalid = await expectJson(
      await req("POST", "/api/directory/editions", { body: { effectiveDate: "soon", reason: "" } }),
      400,
    );
    assert.deepEqual(Object.keys(invalid.fields).sort(), ["effectiveDate", "reason"]);
    const far = await expectJson(
      await req("POST", "/api/directory/editions", {
        body: { effectiveDate: dayAhead(t, 800), reason: "x" },
      }),
      400,
    );
    assert.ok(far.fields.effectiveDate);
    await expectJson(await req("GET", "/api/directory/next?effectiveDate=nope"), 400);
  } finally {
    await t.close();
  }
});

/** The app's database, killed (every write refused) from its `killAt`-th transaction on. */
function killedAt(db: Database, killAt: number): Database {
  let transactions = 0;
  return {
    ...db,
    transaction: (fn) => {
      if (++transactions >= killAt) return Promise.reject(new Error("killed mid-build"));
      return db.transaction(fn);
    },
  };
}

Deno.test("a publisher killed mid-build leaves no visible edition, and its retry publishes the edition whole", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const approver = await secondPerson(t);
    await seedRegistry(t);
    const answer = await req("POST", "/api/directory/editions", {
      body: { effectiveDate: dayAhead(t, 1), reason: "Quarterly edition" },
    });
    const approved = await approvePending(t, approver.cookie, answer);
    assert.deepEqual([approved.resultEntityType, approved.resultEntityId], ["directory_edition", "1"]);
    // The orphan sweep, then full.csv's pieces, then the kill while delta.csv's are written.
    await assert.rejects(publishQueuedEdition({ ...t.deps, db: killedAt(t.deps.db, 3) }), /killed mid-build/);
    const orphans = await t.deps.db.statements.get<{ n: number }>(
      "SELECT count(*) AS n FROM directory_file_chunks WHERE edition_number = 1",
      [],
    );
    assert.ok(orphans!.n > 0, "the build had stored pieces before it was killed");
    const [queued] = await expectJson(await req("GET", "/api/directory/editions"), 200);
    assert.deepEqual([queued.number, queued.status, queued.counts, queued.files], [
      1,
      "publishing",
      null,
      [],
    ]);
    for (const name of ["manifest.json", ...FILES]) {
      assert.equal((await req("GET", `/api/directory/editions/1/${name}`)).status, 404, name);
    }
    // A second edition cannot be approved while the first is publishing.
    const second = await req("POST", "/api/directory/editions", {
      body: { effectiveDate: dayAhead(t, 2), reason: "Next" },
    });
    const pending = await expectJson<{ approvalRequest: { id: string } }>(second, 202);
    const refused = await expectJson(
      await t.request("POST", `/api/approvals/${pending.approvalRequest.id}/approve`, {
        cookie: approver.cookie,
        body: { reason: "Checked" },
      }),
      409,
    );
    assert.match(refused.message, /still being published/);

    const edition = await publishQueuedEdition(t.deps);
    assert.equal(edition?.number, 1);
    const manifest = JSON.parse(await (await download(req, 1, "manifest.json")).text());
    for (const file of manifest.files) {
      const bytes = new Uint8Array(await (await download(req, 1, file.name)).arrayBuffer());
      assert.equal(createHash("sha256").update(bytes).digest("hex"), file.sha256, file.name);
    }
    assert.deepEqual(manifest.counts.full.INST, { total: 2, A: 2, M: 0, D: 0, U: 0 });
    const pieces = await t.deps.db.statements.all<{ name: string; n: number; last: number }>(
      "SELECT name, count(*) AS n, max(seq) AS last FROM directory_file_chunks WHERE edition_number = 1 GROUP BY name ORDER BY name",
      [],
    );
    // Every file's pieces numbered from 0 without a gap or a leftover of the killed build.
    assert.deepEqual(pieces.map((piece) => [piece.name, piece.n - 1 === piece.last]), [
      ["delta.csv", true],
      ["full.csv", true],
      ["full.txt", true],
    ]);
    const [published] = await expectJson(await req("GET", "/api/directory/editions"), 200);
    assert.deepEqual([published.number, published.status, published.files.length], [1, "published", 6]);
    const audit = await t.deps.db.statements.all<{ action: string }>(
      "SELECT action FROM audit_trail WHERE entity_type = 'directory_edition' ORDER BY seq",
      [],
    );
    assert.deepEqual(audit.map((row) => row.action), ["queue_publication", "publish"]);
  } finally {
    await t.close();
  }
});

Deno.test("the registry is read a page at a time by searching each kind's key index, never by sorting, with owners from a covering index", async () => {
  const t = await createTestApp();
  try {
    for (const [kind, sql] of Object.entries(REGISTRY_PAGE_SQL)) {
      const at = "2027-01-01T00:00:00.000Z";
      const plan = await t.deps.db.readClient.execute({
        sql: `EXPLAIN QUERY PLAN ${sql}`,
        args: [at, at, at, at, "", "", 0, 10],
      });
      const steps = plan.rows.map((row) => String(row.detail));
      assert.ok(
        steps.some((step) => step.startsWith(`SEARCH v USING INDEX registry_versions_${kind}_key_idx`)),
        kind,
      );
      assert.ok(steps.every((step) => !step.includes("TEMP B-TREE")), `${kind}: ${steps.join("; ")}`);
      // The related institution's number and name come from an index alone, never from its version.
      assert.ok(
        steps.some((step) =>
          step.startsWith("SEARCH r USING COVERING INDEX registry_institution_names_in_force_idx")
        ),
        `${kind}: ${steps.join("; ")}`,
      );
    }
  } finally {
    await t.close();
  }
});

Deno.test("a record that stops fitting after the approval fails the publication for good, saying why; the preview sees it at once", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const approver = await secondPerson(t);
    const registry = await seedRegistry(t);
    const before = await expectJson(
      await req("GET", `/api/directory/next?effectiveDate=${dayAhead(t, 1)}`),
      200,
    );
    assert.equal(before.overlongCount, 0);
    const answer = await req("POST", "/api/directory/editions", {
      body: { effectiveDate: dayAhead(t, 1), reason: "Quarterly edition" },
    });
    await approvePending(t, approver.cookie, answer);
    const longName = "N".repeat(150);
    await t.deps.db.transaction((tx) =>
      recordVersion(tx, {
        entityType: "institution",
        entityId: registry.bankA,
        validFrom: new Date(t.deps.clock.now()).toISOString(),
        changes: { name: longName },
        summary: "Renamed",
        requestedBy: null,
        approvedBy: null,
      }, t.deps.clock.now())
    );
    // The cached preview is stale as soon as the registry's epoch moves.
    const after = await expectJson(
      await req("GET", `/api/directory/next?effectiveDate=${dayAhead(t, 1)}`),
      200,
    );
    assert.ok(after.overlongCount >= 1, JSON.stringify(after.overlong));

    assert.equal(await publishQueuedEdition(t.deps), null);
    const [failed] = await expectJson(await req("GET", "/api/directory/editions"), 200);
    assert.deepEqual([failed.number, failed.status, failed.files], [1, "failed", []]);
    assert.match(failed.error, /fixed-width layout/);
    assert.equal((await req("GET", "/api/directory/editions/1/manifest.json")).status, 404);
    const audit = await t.deps.db.statements.all<{ action: string }>(
      "SELECT action FROM audit_trail WHERE entity_type = 'directory_edition' ORDER BY seq",
      [],
    );
    assert.deepEqual(audit.map((row) => row.action), ["queue_publication", "publication_failed"]);
    // The requester and the approver each hear that it failed, and why.
    for (const cookie of [req.operatorCookie, approver.cookie]) {
      const feed = await t.request("GET", "/api/notifications", { cookie });
      const items = (await expectJson(feed, 200)).items as { kind: string; summary: string; link: string }[];
      const heard = items.filter((item) => item.kind === "directory_edition_failed");
      assert.equal(heard.length, 1, JSON.stringify(items));
      assert.match(
        heard[0].summary,
        /^Directory edition 1 effective \d{4}-\d{2}-\d{2} was not published: .*fixed-width layout/,
      );
      assert.equal(heard[0].link, "/directory");
    }
    // Nothing waits any more: the publisher has nothing to do, and the number is free again.
    assert.equal(await publishQueuedEdition(t.deps), null);
    await t.deps.db.transaction((tx) =>
      recordVersion(tx, {
        entityType: "institution",
        entityId: registry.bankA,
        validFrom: new Date(t.deps.clock.now()).toISOString(),
        changes: { name: "North Bank, Ltd" },
        summary: "Renamed back",
        requestedBy: null,
        approvedBy: null,
      }, t.deps.clock.now())
    );
    assert.equal(await publish(req, approver.cookie, dayAhead(t, 1)), 1);
    const list = await expectJson(await req("GET", "/api/directory/editions"), 200);
    assert.deepEqual(
      list.map((edition: { number: number; status: string }) => [edition.number, edition.status]),
      [
        [1, "published"],
      ],
    );
  } finally {
    await t.close();
  }
});
