/**
 * Bulk import of the registry (docs/directory_import.md): dry run, four-eyes submission, the
 * approval that queues it and the applier that applies it whole or fails it with nothing applied.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { MAX_IMPORT_FILE_BYTES } from "../../src/domain/registry_import.ts";
import { formatRoutingCode } from "../../src/domain/routing_code.ts";
import {
  applyQueuedImports,
  MAX_IMPORT_APPLY_ATTEMPTS,
} from "../../src/server/features/registry_import/applier.ts";
import {
  importChangeLimit,
  judgeFile,
  MAX_REPLICATED_IMPORT_CHANGES,
  sha256Hex,
} from "../../src/server/features/registry_import/plan.ts";
import { historyOf } from "../../src/server/registry_history/versions.ts";
import {
  codeRecord,
  directoryFile,
  generatedRecords,
  institutionRecord,
} from "../helpers/directory_import.ts";
import { operatorOf, seededStaff } from "../helpers/staff.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

interface Counts {
  valid: number;
  invalid: number;
  add: number;
  modify: number;
  unchanged: number;
}

interface Report {
  rows: number;
  valid: boolean;
  counts: { institutions: Counts; routingCodes: Counts; bics: Counts };
  errorCount: number;
  errors: { line: number; field: string; message: string }[];
  changeCount: number;
  changes: {
    line: number;
    key: string;
    action: string;
    fields: { field: string; before: string | null; after: string | null }[];
  }[];
}

interface ImportAnswer {
  id: string;
  state: string;
  approvalRequestId: string;
  approvedByName: string | null;
  failure: { reason: string; message: string; errors?: { line: number; field: string }[] } | null;
}

const CSV = { "content-type": "text/csv" };

async function upload(t: TestApp, cookie: string, path: string, text: string): Promise<Response> {
  return await t.request("POST", path, { cookie, body: text, headers: CSV });
}

const SUBMIT =
  "/api/directory/imports?fileName=registry.csv&requestReason=Initial%20load%20of%20the%20registry";

async function scalar(t: TestApp, query: string): Promise<number> {
  const [row] = await t.deps.db.read.all<{ n: number }>(sql.raw(query));
  return row.n;
}

async function approve(t: TestApp, approverCookie: string, requestId: string): Promise<Response> {
  return await t.request("POST", `/api/approvals/${requestId}/approve`, {
    cookie: approverCookie,
    body: { reason: "Checked the dry run" },
  });
}

/** What headquarters' applier does at its next poll. */
async function runApplier(t: TestApp): Promise<number> {
  return await applyQueuedImports(t.deps.db, () => t.deps.clock.now());
}

/** Approves the request (which queues the import) and lets the applier apply it. */
async function approveAndApply(t: TestApp, approverCookie: string, requestId: string): Promise<void> {
  await expectJson(await approve(t, approverCookie, requestId), 200);
  assert.equal(await runApplier(t), 1);
}

async function importState(t: TestApp, cookie: string, id: string): Promise<ImportAnswer> {
  return await expectJson<ImportAnswer>(
    await t.request("GET", `/api/directory/imports/${id}`, { cookie }),
    200,
  );
}

Deno.test("import: a 10,000-row file is dry-run, submitted once for approval and applied with its versions", async () => {
  const t = await createTestApp();
  try {
    const operator = await operatorOf(t);
    const approver = await seededStaff(t, "import-approver@centralbank.test", ["approver"]);
    const text = directoryFile(generatedRecords(2_500));
    const before = await scalar(t, "SELECT count(*) AS n FROM institutions");

    const report = await expectJson<Report>(
      await upload(t, operator.cookie, "/api/directory/imports/dry-run", text),
      200,
    );
    assert.equal(report.rows, 10_000);
    assert.equal(report.valid, true);
    assert.deepEqual(report.counts.institutions, {
      valid: 2_500,
      invalid: 0,
      add: 2_500,
      modify: 0,
      unchanged: 0,
    });
    assert.deepEqual(report.counts.routingCodes, {
      valid: 5_000,
      invalid: 0,
      add: 5_000,
      modify: 0,
      unchanged: 0,
    });
    assert.deepEqual(report.counts.bics, { valid: 2_500, invalid: 0, add: 2_500, modify: 0, unchanged: 0 });
    assert.equal(report.changeCount, 10_000);
    assert.equal(
      await scalar(t, "SELECT count(*) AS n FROM institutions"),
      before,
      "a dry run writes nothing",
    );

    const pending = await expectJson<{ approvalRequest: { id: string; kind: string }; import: ImportAnswer }>(
      await upload(t, operator.cookie, SUBMIT, text),
      202,
    );
    assert.equal(pending.approvalRequest.kind, "registry_import");
    assert.equal(pending.import.state, "pending_approval");
    const again = await expectJson<ImportAnswer>(await upload(t, operator.cookie, SUBMIT, text), 200);
    assert.equal(again.id, pending.import.id, "the same file again is the same import");
    assert.equal(
      await scalar(t, "SELECT count(*) AS n FROM approval_requests WHERE kind = 'registry_import'"),
      1,
    );

    await expectJson(await approve(t, approver.cookie, pending.approvalRequest.id), 200);
    const queued = await importState(t, operator.cookie, pending.import.id);
    assert.equal(queued.state, "approved", "the approval queues the import for the applier");
    assert.equal(queued.approvedByName !== null, true);
    assert.equal(
      await scalar(t, "SELECT count(*) AS n FROM institutions"),
      before,
      "nothing before the applier",
    );
    const queuedAgain = await expectJson<ImportAnswer>(await upload(t, operator.cookie, SUBMIT, text), 200);
    assert.equal(
      queuedAgain.state,
      "approved",
      "a queued file submitted again is answered, never queued twice",
    );
    assert.equal(await runApplier(t), 1);
    assert.equal(await runApplier(t), 0, "applied once");
    assert.equal(await scalar(t, "SELECT count(*) AS n FROM institutions"), before + 2_500);
    assert.equal(await scalar(t, "SELECT count(*) AS n FROM routing_codes WHERE code LIKE 'IMP%'"), 5_000);
    assert.equal(
      await scalar(t, "SELECT count(*) AS n FROM swift_codes WHERE bic_code LIKE 'I%DEFF'"),
      2_500,
    );
    const versions = await t.deps.db.read.all<{ n: number; approvers: number }>(sql`SELECT count(*) AS n,
      count(DISTINCT approved_by) AS approvers FROM registry_versions
      WHERE summary = 'Imported' AND approved_by = ${approver.id} AND approval_request_id = ${pending.approvalRequest.id}`);
    assert.deepEqual(versions[0], { n: 10_000, approvers: 1 }, "every created record has its first version");

    const applied = await expectJson<ImportAnswer & { appliedAt: string }>(
      await t.request("GET", `/api/directory/imports/${pending.import.id}`, { cookie: operator.cookie }),
      200,
    );
    assert.equal(applied.state, "applied");
    const list = await expectJson<ImportAnswer[]>(
      await t.request("GET", "/api/directory/imports", { cookie: operator.cookie }),
      200,
    );
    assert.deepEqual(list.map((item) => [item.id, item.state]), [[pending.import.id, "applied"]]);
    const third = await expectJson<ImportAnswer>(await upload(t, operator.cookie, SUBMIT, text), 200);
    assert.equal(third.state, "applied", "an applied file submitted again is answered, never applied twice");
    assert.equal(
      await scalar(
        t,
        "SELECT count(*) AS n FROM audit_trail WHERE entity_type = 'registry_import' AND action = 'apply'",
      ),
      1,
    );
    const outcomes = await t.deps.db.read.all<{ recipient: string; summary: string }>(sql`SELECT
      recipient_user_id AS recipient, summary FROM events WHERE kind = 'registry_import_finished' ORDER BY recipient`);
    assert.deepEqual(outcomes.map((event) => event.recipient).sort(), [approver.id, operator.id].sort());
    assert.match(outcomes[0].summary, /^The registry import of registry\.csv was applied: 10000 records/);
  } finally {
    await t.close();
  }
});

Deno.test("import: a second file modifies what differs, as versions with the approver, and leaves the rest", async () => {
  const t = await createTestApp();
  try {
    const operator = await operatorOf(t);
    const approver = await seededStaff(t, "import-approver@centralbank.test", ["approver"]);
    const records = generatedRecords(3);
    const first = await expectJson<{ approvalRequest: { id: string } }>(
      await upload(t, operator.cookie, SUBMIT, directoryFile(records)),
      202,
    );
    await approveAndApply(t, approver.cookie, first.approvalRequest.id);

    // Same institution under another case of its registration number: a modification, not a duplicate.
    records[0] = {
      ...records[0],
      key: records[0].key.toLowerCase(),
      name: "Renamed Import Bank",
      status: "suspended",
    };
    const report = await expectJson<Report>(
      await upload(t, operator.cookie, "/api/directory/imports/dry-run", directoryFile(records)),
      200,
    );
    assert.deepEqual(report.counts.institutions, { valid: 3, invalid: 0, add: 0, modify: 1, unchanged: 2 });
    assert.deepEqual(report.counts.routingCodes, { valid: 6, invalid: 0, add: 0, modify: 0, unchanged: 6 });
    assert.deepEqual(report.changes, [{
      line: 2,
      recordType: "INST",
      key: "imp-000001",
      action: "modify",
      fields: [
        { field: "name", before: "Imported Bank IMP-000001", after: "Renamed Import Bank" },
        { field: "status", before: "active", after: "suspended" },
      ],
    }]);
    const second = await expectJson<{ approvalRequest: { id: string } }>(
      await upload(t, operator.cookie, SUBMIT, directoryFile(records)),
      202,
    );
    await approveAndApply(t, approver.cookie, second.approvalRequest.id);
    const [bank] = await t.deps.db.read.all<{ id: string; name: string; status: string; key: string }>(
      sql`SELECT id, name, status, registration_number AS key FROM institutions WHERE registration_number = 'IMP-000001'`,
    );
    assert.deepEqual([bank.name, bank.status, bank.key], ["Renamed Import Bank", "suspended", "IMP-000001"]);
    const history = await historyOf(t.deps.db.read, "institution", bank.id);
    assert.equal(history.length, 2);
    assert.equal(history[0].summary, "Imported: name → Renamed Import Bank; status → suspended");
    assert.equal(history[0].approvedBy?.id, approver.id);
    assert.equal(history[0].requestedBy?.id, operator.id);
  } finally {
    await t.close();
  }
});

Deno.test("import: errors are reported by line and field, and a file with errors cannot be submitted", async () => {
  const t = await createTestApp();
  try {
    const operator = await operatorOf(t);
    const records = [
      institutionRecord("ERR-1"),
      institutionRecord("ERR-2", {
        institution_type: "bank",
        email_address: "nobody",
        lei: "5299IMP00000000000001",
      }),
      institutionRecord("err-1"),
      codeRecord("RTC", "ABC00000199", "ERR-1"),
      codeRecord("RTC", formatRoutingCode("IMP", 1), "NOBODY"),
      codeRecord("BIC", "ABCDZZ2L", "ERR-1"),
      institutionRecord("ERR-3", { status: "closed" }),
    ];
    const text = directoryFile(records) + "A,INST,ONLY-THREE\r\n";
    const report = await expectJson<Report>(
      await upload(t, operator.cookie, "/api/directory/imports/dry-run", text),
      200,
    );
    assert.equal(report.valid, false);
    assert.deepEqual(report.errors.map(({ line, field }) => [line, field]), [
      [3, "institution_type"],
      [3, "email_address"],
      [3, "lei"],
      [4, "key"],
      [5, "key"],
      [6, "institution_key"],
      [7, "key"],
      [8, "status"],
      [9, "record"],
    ]);
    assert.equal(report.errors.find((error) => error.line === 4)!.message, "Duplicate of line 2");
    assert.equal(report.errorCount, 9);
    assert.deepEqual(report.counts.institutions, { valid: 1, invalid: 3, add: 1, modify: 0, unchanged: 0 });

    const refused = await expectJson<{ report: Report }>(await upload(t, operator.cookie, SUBMIT, text), 400);
    assert.equal(refused.report.errorCount, 9);
    assert.equal(await scalar(t, "SELECT count(*) AS n FROM registry_imports"), 0);
    assert.equal(await scalar(t, "SELECT count(*) AS n FROM approval_requests"), 0);
  } finally {
    await t.close();
  }
});

Deno.test("import: applying is all or nothing: a registration number taken after the dry run fails the import", async () => {
  const t = await createTestApp();
  try {
    const operator = await operatorOf(t);
    const approver = await seededStaff(t, "import-approver@centralbank.test", ["approver"]);
    const pending = await expectJson<{ approvalRequest: { id: string }; import: ImportAnswer }>(
      await upload(t, operator.cookie, SUBMIT, directoryFile(generatedRecords(50))),
      202,
    );
    const institutionsBefore = await scalar(t, "SELECT count(*) AS n FROM institutions");
    await expectJson(
      await t.request("POST", "/api/institutions", {
        cookie: operator.cookie,
        body: {
          name: "Got There First",
          registrationNumber: "imp-000050",
          type: "savings",
          address: "1 Race Street",
          phoneNumber: "+1 202 555 0100",
          emailAddress: "first@race.example",
        },
      }),
      201,
    );
    await approveAndApply(t, approver.cookie, pending.approvalRequest.id);
    const failed = await importState(t, operator.cookie, pending.import.id);
    assert.equal(failed.state, "failed");
    const refused = failed.failure!;
    assert.equal(refused.reason, "registry_changed");
    assert.match(refused.message, /^The registry changed since the dry run: .*nothing was applied/);
    assert.equal(
      await scalar(t, "SELECT count(*) AS n FROM institutions"),
      institutionsBefore + 1,
      "nothing of the import",
    );
    assert.equal(await scalar(t, "SELECT count(*) AS n FROM routing_codes"), 0);
    assert.equal(
      await scalar(t, "SELECT count(*) AS n FROM registry_versions WHERE summary = 'Imported'"),
      0,
    );
    assert.equal(
      await scalar(
        t,
        "SELECT count(*) AS n FROM audit_trail WHERE entity_type = 'registry_import' AND action = 'apply_failed'",
      ),
      1,
    );
    assert.equal(
      await scalar(
        t,
        "SELECT count(*) AS n FROM events WHERE kind = 'registry_import_finished' AND summary LIKE '%failed%'",
      ),
      2,
      "the requester and the approver hear it failed",
    );
    assert.equal(await runApplier(t), 0, "a failed import is not tried again");
    const resubmitted = await expectJson<{ import: ImportAnswer; approvalRequest: { id: string } }>(
      await upload(t, operator.cookie, SUBMIT, directoryFile(generatedRecords(50))),
      202,
    );
    assert.equal(
      resubmitted.import.id,
      pending.import.id,
      "submitted again, the failed import is judged again",
    );
    assert.equal(resubmitted.import.state, "pending_approval");
    assert.notEqual(resubmitted.approvalRequest.id, pending.approvalRequest.id);
    assert.equal(resubmitted.import.failure, null);
  } finally {
    await t.close();
  }
});

Deno.test("import: the upload is text/csv within its own size limit, with the maker's reason, for operators", async () => {
  const t = await createTestApp();
  try {
    const operator = await operatorOf(t);
    const adminCookie = await t.login();
    const text = directoryFile(generatedRecords(1));
    const asJson = await t.request("POST", "/api/directory/imports/dry-run", {
      cookie: operator.cookie,
      body: { text },
    });
    assert.equal(asJson.status, 415);
    await asJson.body?.cancel();
    const tooLarge = await t.request("POST", "/api/directory/imports/dry-run", {
      cookie: operator.cookie,
      body: text,
      headers: { ...CSV, "content-length": String(MAX_IMPORT_FILE_BYTES + 1) },
    });
    assert.equal(tooLarge.status, 413);
    await tooLarge.body?.cancel();
    const aboveJsonLimit = text + "A,INST,".padEnd(2 * 1024 * 1024, "x") + "\r\n";
    const large = await upload(t, operator.cookie, "/api/directory/imports/dry-run", aboveJsonLimit);
    assert.equal(large.status, 200, "a file above the JSON body limit is still read");
    await large.body?.cancel();
    const unexplained = await expectJson<{ field: string }>(
      await upload(t, operator.cookie, "/api/directory/imports?fileName=one.csv", text),
      400,
    );
    assert.equal(unexplained.field, "requestReason", "the maker says why, as for every four-eyes request");
    assert.equal(
      await scalar(t, "SELECT count(*) AS n FROM registry_imports"),
      0,
      "nothing is kept of a refused submission",
    );
    const forbidden = await upload(t, adminCookie, "/api/directory/imports/dry-run", text);
    assert.equal(forbidden.status, 403);
    await forbidden.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("import: after its request is rejected, the same file is judged again and files a new request for the same import", async () => {
  const t = await createTestApp();
  try {
    const operator = await operatorOf(t);
    const approver = await seededStaff(t, "import-approver@centralbank.test", ["approver"]);
    const text = directoryFile(generatedRecords(2));
    const first = await expectJson<{ approvalRequest: { id: string }; import: ImportAnswer }>(
      await upload(t, operator.cookie, SUBMIT, text),
      202,
    );
    await expectJson(
      await t.request("POST", `/api/approvals/${first.approvalRequest.id}/reject`, {
        cookie: approver.cookie,
        body: { reason: "Not this week" },
      }),
      200,
    );
    const rejected = await expectJson<ImportAnswer>(
      await t.request("GET", `/api/directory/imports/${first.import.id}`, { cookie: operator.cookie }),
      200,
    );
    assert.equal(rejected.state, "rejected");
    const again = await expectJson<{ approvalRequest: { id: string }; import: ImportAnswer }>(
      await upload(t, operator.cookie, SUBMIT, text),
      202,
    );
    assert.equal(again.import.id, first.import.id);
    assert.notEqual(again.approvalRequest.id, first.approvalRequest.id);
    assert.equal(again.import.state, "pending_approval");
    assert.equal(await scalar(t, "SELECT count(*) AS n FROM registry_imports"), 1);
  } finally {
    await t.close();
  }
});

/**
 * An operator's pending import of `institutions` generated institutions, and a database that refuses
 * every BIC insert: the BICs come last, so institutions and routing codes are written in the final
 * transaction when it throws.
 */
async function brokenApply(t: TestApp, institutions: number) {
  const operator = await operatorOf(t);
  const approver = await seededStaff(t, "import-approver@centralbank.test", ["approver"]);
  const pending = await expectJson<{ approvalRequest: { id: string }; import: ImportAnswer }>(
    await upload(t, operator.cookie, SUBMIT, directoryFile(generatedRecords(institutions))),
    202,
  );
  await t.deps.db.transaction((tx) =>
    tx.run(sql`CREATE TRIGGER import_drill BEFORE INSERT ON swift_codes
      BEGIN SELECT RAISE(ABORT, 'disk gave way midway'); END`)
  );
  return { operator, approver, pending };
}

Deno.test("import: an apply that throws midway leaves nothing applied, and the next round applies it whole", async () => {
  const t = await createTestApp();
  try {
    const { operator, approver, pending } = await brokenApply(t, 1_000);
    const institutionsBefore = await scalar(t, "SELECT count(*) AS n FROM institutions");
    await expectJson(await approve(t, approver.cookie, pending.approvalRequest.id), 200);
    assert.equal(await runApplier(t), 0, "the attempt failed: nothing settled");
    const midway = await importState(t, operator.cookie, pending.import.id);
    assert.equal(midway.state, "applying", "left to be applied again");
    assert.equal(midway.failure, null);
    assert.equal(
      await scalar(t, "SELECT count(*) AS n FROM institutions"),
      institutionsBefore,
      "nothing applied",
    );
    assert.equal(await scalar(t, "SELECT count(*) AS n FROM routing_codes"), 0);
    assert.equal(
      await scalar(t, "SELECT count(*) AS n FROM registry_versions WHERE summary = 'Imported'"),
      0,
    );
    assert.equal(
      await scalar(
        t,
        "SELECT count(*) AS n FROM audit_trail WHERE entity_type = 'registry_import' AND action = 'apply'",
      ),
      0,
    );

    await t.deps.db.transaction((tx) => tx.run(sql`DROP TRIGGER import_drill`));
    assert.equal(await runApplier(t), 1);
    const applied = await importState(t, operator.cookie, pending.import.id);
    assert.equal(applied.state, "applied");
    assert.equal(await scalar(t, "SELECT count(*) AS n FROM institutions"), institutionsBefore + 1_000);
    assert.equal(await scalar(t, "SELECT count(*) AS n FROM routing_codes"), 2_000);
    assert.equal(
      await scalar(t, "SELECT count(*) AS n FROM swift_codes WHERE bic_code LIKE 'I%DEFF'"),
      1_000,
    );
    assert.equal(
      await scalar(t, "SELECT count(*) AS n FROM registry_versions WHERE summary = 'Imported'"),
      4_000,
    );
    assert.equal(await scalar(t, "SELECT apply_attempts AS n FROM registry_imports"), 2);
    assert.equal(await scalar(t, "SELECT count(*) AS n FROM registry_import_staging"), 0, "staging emptied");
  } finally {
    await t.close();
  }
});

Deno.test("import: an apply that keeps failing ends failed after its attempts, with nothing applied", async () => {
  const t = await createTestApp();
  try {
    const { operator, approver, pending } = await brokenApply(t, 5);
    await expectJson(await approve(t, approver.cookie, pending.approvalRequest.id), 200);
    for (let attempt = 1; attempt <= MAX_IMPORT_APPLY_ATTEMPTS; attempt++) {
      assert.equal(await runApplier(t), 0);
    }
    assert.equal(await runApplier(t), 1, "settled as failed");
    const failed = await importState(t, operator.cookie, pending.import.id);
    assert.equal(failed.state, "failed");
    assert.equal(failed.failure?.reason, "attempts_exhausted");
    assert.match(failed.failure!.message, /disk gave way midway/);
    assert.equal(await scalar(t, "SELECT count(*) AS n FROM routing_codes"), 0);
  } finally {
    await t.close();
  }
});

Deno.test("import: on the replicated topology a file may change at most its limit of records; unchanged ones do not count", async () => {
  const t = await createTestApp();
  try {
    assert.equal(importChangeLimit("standalone"), Number.POSITIVE_INFINITY);
    assert.equal(importChangeLimit("headquarters"), MAX_REPLICATED_IMPORT_CHANGES);
    assert.equal(importChangeLimit("regional"), MAX_REPLICATED_IMPORT_CHANGES);
    const operator = await operatorOf(t);
    const approver = await seededStaff(t, "import-approver@centralbank.test", ["approver"]);
    const records = generatedRecords(2);
    const text = directoryFile(records);
    const judge = async (file: string, maxChanges: number) =>
      (await judgeFile(
        t.deps.db.read,
        { text: file, sha256: sha256Hex(new TextEncoder().encode(file)), byteSize: file.length },
        new Date().toISOString(),
        maxChanges,
      )).report;

    const over = await judge(text, 7);
    assert.equal(over.valid, false);
    assert.deepEqual(over.errors[0], {
      line: 1,
      field: "file",
      message:
        "The file would add or modify 8 records; on the replicated topology an import changes at most 7: split it into files of at most 7 changes",
    });
    assert.equal((await judge(text, 8)).valid, true);

    const first = await expectJson<{ approvalRequest: { id: string } }>(
      await upload(t, operator.cookie, SUBMIT, text),
      202,
    );
    await approveAndApply(t, approver.cookie, first.approvalRequest.id);
    // The same directory again with one institution renamed: one change, within a limit of one.
    records[0] = { ...records[0], name: "Renamed Import Bank" };
    const again = await judge(directoryFile(records), 1);
    assert.equal(again.valid, true, JSON.stringify(again.errors));
    assert.equal(again.changeCount, 1);
  } finally {
    await t.close();
  }
});
