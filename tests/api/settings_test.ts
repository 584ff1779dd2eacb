/**
 * System Settings on the server (GET /api/settings, PUT /api/settings/<tab>): each applied setting
 * changes what the server does, every change is audited, security changes go through dual control.
 */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import NativeDatabase from "libsql";
import { sql } from "drizzle-orm";
import { lastBackupRun, runBackup, runDueBackup } from "../../src/server/backup/runs.ts";
import { BACKUP_FILE, digestFile, readManifest } from "../../src/server/backup/manifest.ts";
import { pruneReports, reportsDir } from "../../src/server/features/reports/service.ts";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { createStaff, firstSignIn } from "../helpers/staff.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import { handClock } from "../helpers/hand_clock.ts";
import { createKey, withKey } from "./api_access_helpers.ts";

const DAY_MS = 86_400_000;
const GENERAL = {
  systemName: "Reserve Bank Registry",
  systemDescription: "The reserve bank's registry",
  countryCode: "GB",
  currency: "GBP",
  timezone: "GMT",
  language: "en",
};

async function auditRows(t: TestApp, entityType: string, entityId?: string) {
  const rows = await t.deps.db.read.all<{ id: string; action: string; changes: string }>(
    sql`SELECT id, action, changes FROM audit_trail WHERE entity_type = ${entityType}
      AND (${entityId ?? null} IS NULL OR entity_id = ${entityId ?? null}) ORDER BY seq`,
  );
  return rows.map((row) => ({ ...row, changes: JSON.parse(row.changes ?? "null") }));
}

Deno.test("settings: section 9's defaults from the server, a tab's change saved with its audit row, shown to every role", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const initial = await expectJson(await t.request("GET", "/api/settings", { cookie: admin }), 200);
    assert.equal(initial.sessionTimeout, 30);
    assert.equal(initial.apiRateLimit, 1000);
    assert.equal(initial.passwordPolicy, "strong");
    assert.equal(initial.passwordMinLength, 12);
    assert.equal(initial.autoBackup, true);
    assert.equal(initial.backupFrequency, "daily");
    assert.match(initial.readOnly.auditLogRetention, /never pruned/);

    const saved = await expectJson(
      await t.request("PUT", "/api/settings/general", { cookie: admin, body: GENERAL }),
      200,
    );
    assert.equal(saved.systemName, "Reserve Bank Registry");
    const [row] = await auditRows(t, "system_settings", "general");
    assert.equal(row.action, "update");
    assert.equal(row.changes.before.systemName, "Central Bank Registry System");
    assert.equal(row.changes.after.systemName, "Reserve Bank Registry");

    const operator = await createStaff(t, admin, "operator@centralbank.test", ["operator"]);
    const read = await expectJson(await t.request("GET", "/api/settings", { cookie: operator.cookie }), 200);
    assert.equal(read.systemName, "Reserve Bank Registry");
    const refused = await expectJson(
      await t.request("PUT", "/api/settings/general", { cookie: operator.cookie, body: GENERAL }),
      403,
    );
    assert.match(refused.message, /administrator/i);
    for (
      const path of [
        "/api/settings/security",
        "/api/settings/api",
        "/api/settings/backup",
        "/api/settings/system",
      ]
    ) {
      await expectJson(await t.request("PUT", path, { cookie: operator.cookie, body: {} }), 403);
    }
    await expectJson(await t.request("POST", "/api/settings/backup/run", { cookie: operator.cookie }), 403);
  } finally {
    await t.close();
  }
});

Deno.test("settings: invalid values answer 400 with a message per field, and nothing changes", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const put = (tab: string, body: unknown) =>
      t.request("PUT", `/api/settings/${tab}`, { cookie: admin, body });
    const security = await expectJson(
      await put("security", { sessionTimeout: 2, passwordPolicy: "basic" }),
      400,
    );
    assert.match(security.fields.sessionTimeout, /at least 5 minutes/);
    assert.ok(security.fields.passwordPolicy);
    const longer = await expectJson(
      await put("security", { sessionTimeout: 60, passwordPolicy: "strong" }),
      400,
    );
    assert.match(longer.fields.sessionTimeout, /at most 30 minutes/, "SESSION_IDLE_MINUTES is the ceiling");
    const api = await expectJson(await put("api", { apiRateLimit: 0 }), 400);
    assert.match(api.fields.apiRateLimit, /at least 1/);
    const general = await expectJson(
      await put("general", { ...GENERAL, systemName: " ", currency: "XYZ" }),
      400,
    );
    assert.ok(general.fields.systemName && general.fields.currency);
    const backup = await expectJson(
      await put("backup", { autoBackup: "yes", backupFrequency: "yearly", backupRetentionCopies: 0 }),
      400,
    );
    assert.deepEqual(Object.keys(backup.fields).sort(), [
      "autoBackup",
      "backupFrequency",
      "backupRetentionCopies",
    ]);
    const system = await expectJson(
      await put("system", { requestLogRetentionDays: -1, reportRetentionDays: 1.5 }),
      400,
    );
    assert.ok(system.fields.requestLogRetentionDays && system.fields.reportRetentionDays);
    await expectJson(await put("api", { apiRateLimit: 10, extra: true }), 400);
    assert.equal(
      (await expectJson(await t.request("GET", "/api/settings", { cookie: admin }), 200)).apiRateLimit,
      1000,
    );
    assert.equal((await auditRows(t, "system_settings")).length, 0);
  } finally {
    await t.close();
  }
});

Deno.test("settings: a shorter session timeout ends idle sessions sooner, the sessions already open included", async () => {
  const { clock, advance } = handClock();
  const t = await createTestApp({}, { clock });
  try {
    const admin = await t.login();
    const other = await t.login();
    advance(11 * 60_000);
    // With the default 30 minutes, 11 idle minutes end nothing.
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: admin }), 200);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: other }), 200);
    await expectJson(
      await t.request("PUT", "/api/settings/security", {
        cookie: admin,
        body: { sessionTimeout: 10, passwordPolicy: "strong" },
      }),
      200,
    );
    const session = await expectJson(await t.request("GET", "/api/auth/session", { cookie: admin }), 200);
    assert.equal(session.idleTimeoutMinutes, 10);
    advance(10 * 60_000 + 1_000);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: admin }), 401);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: other }), 401);
    // A new session gets the new timeout from its start.
    const fresh = await t.login();
    advance(9 * 60_000);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: fresh }), 200);
    advance(10 * 60_000 + 1_000);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: fresh }), 401);
  } finally {
    await t.close();
  }
});

Deno.test("settings: the complex policy (16+) refuses a 14-character password on a new user's first password change", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    await expectJson(
      await t.request("PUT", "/api/settings/security", {
        cookie: admin,
        body: { sessionTimeout: 30, passwordPolicy: "complex" },
      }),
      200,
    );
    const created = await expectJson(
      await t.request("POST", "/api/users", {
        cookie: admin,
        body: { email: "new.clerk@centralbank.test", roles: ["operator"] },
      }),
      201,
    );
    const cookie = await t.login("new.clerk@centralbank.test", created.initialPassword);
    const change = (newPassword: string) =>
      t.request("POST", "/api/auth/password", {
        cookie,
        body: { currentPassword: created.initialPassword, newPassword },
      });
    const refused = await expectJson(await change("Qv7#mZ2!pL9@xR"), 400);
    assert.match(refused.fields.newPassword, /at least 16 characters/);
    await firstSignIn(t, created.user.id, "new.clerk@centralbank.test", created.initialPassword);
  } finally {
    await t.close();
  }
});

Deno.test("settings: the API rate limit is the hourly limit of keys created afterwards, older keys keep theirs", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const older = await createKey(t, admin, { name: "older" });
    await expectJson(
      await t.request("PUT", "/api/settings/api", { cookie: admin, body: { apiRateLimit: 2 } }),
      200,
    );
    const newer = await createKey(t, admin, { name: "newer" });
    const keys = await expectJson(await t.request("GET", "/api/api-keys", { cookie: admin }), 200);
    const listed = (keys.data ?? keys) as { id: string; limitPerHour: number | null }[];
    assert.equal(listed.find((key) => key.id === newer.id)?.limitPerHour, 2);
    assert.equal(listed.find((key) => key.id === older.id)?.limitPerHour, 1000);

    const call = withKey(t, newer.key);
    await expectJson(await call("GET", "/api/institutions"), 200);
    const second = await call("GET", "/api/institutions");
    assert.equal(second.headers.get("ratelimit-limit"), "2");
    await expectJson(second, 200);
    const third = await expectJson(await call("GET", "/api/institutions"), 429);
    assert.match(third.error ?? third.message, /2 requests per hour/);
    await expectJson(await withKey(t, older.key)("GET", "/api/institutions"), 200);
  } finally {
    await t.close();
  }
});

Deno.test("settings: retention prunes the request log and generated reports, never the audit trail", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const report = await t.request("POST", "/api/reports", {
      cookie: admin,
      body: { type: "institutions", format: "csv", from: "2025-03-01", to: "2025-03-31" },
    });
    assert.equal(report.status, 200);
    const reportId = report.headers.get("x-report-id")!;
    await report.body?.cancel();
    await expectJson(
      await t.request("PUT", "/api/settings/system", {
        cookie: admin,
        body: { requestLogRetentionDays: 5, reportRetentionDays: 7 },
      }),
      200,
    );
    await t.app.requestLog.flush();
    const count = async (table: string) =>
      (await t.deps.db.read.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`))[0].n;
    const auditBefore = await count("audit_trail");
    assert.ok((await count("api_logs")) > 0);

    assert.equal(
      await t.app.requestLog.prune(new Date(Date.now() + 4 * DAY_MS)),
      0,
      "younger than 5 days: kept",
    );
    assert.ok((await t.app.requestLog.prune(new Date(Date.now() + 6 * DAY_MS))) > 0);
    assert.equal(await count("api_logs"), 0);
    const [logPrune] = await auditRows(t, "api_logs", "retention");
    assert.equal(logPrune.changes.retentionDays, 5);

    assert.equal(await pruneReports(t.deps, Date.now() + 6 * DAY_MS), 0, "younger than 7 days: kept");
    assert.equal(await pruneReports(t.deps, Date.now() + 8 * DAY_MS), 1);
    assert.equal(await count("generated_reports"), 0);
    const left: string[] = [];
    for await (const entry of Deno.readDir(reportsDir(t.deps.config))) left.push(entry.name);
    assert.ok(!left.some((name) => name.startsWith(reportId)), "the report's file is gone too");

    // The audit trail only grew: both prunings added their row, nothing was taken out.
    assert.equal(await count("audit_trail"), auditBefore + 2);
    const verification = await expectJson(
      await t.request("GET", "/api/audit-trail/verification", { cookie: admin }),
      200,
    );
    assert.equal(verification.valid ?? verification.ok ?? true, true);
  } finally {
    await t.close();
  }
});

Deno.test("settings: under dual control a security change is a request that a second administrator approves", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const second = await createStaff(t, admin, "second.admin@centralbank.test", ["administrator"]);
    const put = (body: unknown) => t.request("PUT", "/api/settings/security", { cookie: admin, body });
    const change = { sessionTimeout: 15, passwordPolicy: "stronger" };
    const missing = await expectJson(await put(change), 400);
    assert.ok(missing.fields.requestReason);
    const pending = await expectJson(await put({ ...change, requestReason: "Examiners' finding 4.2" }), 202);
    assert.equal(pending.status, "pending_approval");
    assert.equal(pending.approvalRequest.kind, "security_settings");
    assert.deepEqual(pending.approvalRequest.summary, change);
    const before = await expectJson(await t.request("GET", "/api/settings", { cookie: admin }), 200);
    assert.equal(before.sessionTimeout, 30, "nothing changes before the approval");

    // The maker cannot approve their own request.
    assert.notEqual(
      (await t.request("POST", `/api/approvals/${pending.approvalRequest.id}/approve`, {
        cookie: admin,
        body: { reason: "Me" },
      })).status,
      200,
    );
    await expectJson(
      await t.request("POST", `/api/approvals/${pending.approvalRequest.id}/approve`, {
        cookie: second.cookie,
        body: { reason: "Agreed" },
      }),
      200,
    );
    const after = await expectJson(await t.request("GET", "/api/settings", { cookie: admin }), 200);
    assert.equal(after.sessionTimeout, 15);
    assert.equal(after.passwordPolicy, "stronger");
    assert.equal(after.passwordMinLength, 14);
    const [row] = await auditRows(t, "system_settings", "security");
    assert.equal(row.changes.control.approvedBy, second.id);
    // The other tabs are not security settings: an administrator changes them alone.
    await expectJson(
      await t.request("PUT", "/api/settings/api", { cookie: admin, body: { apiRateLimit: 500 } }),
      200,
    );
  } finally {
    await t.close();
  }
});

Deno.test("settings: a scheduled backup on a standalone node is a restorable copy; copies beyond the retention go", async () => {
  const { clock, advance } = handClock();
  const t = await createTestApp({}, { clock });
  try {
    const admin = await t.login();
    await expectJson(await t.request("PUT", "/api/settings/general", { cookie: admin, body: GENERAL }), 200);
    const deps = { ...t.deps, clock };
    const run = await runDueBackup(deps);
    assert.equal(run?.status, "completed", run?.error ?? "");
    assert.equal(await runDueBackup(deps), null, "the next daily backup is not due yet");

    const manifest = await readManifest(run!.folder!);
    assert.equal(manifest.logId, null);
    assert.deepEqual(await digestFile(`${run!.folder}/${BACKUP_FILE}`), {
      sha256: manifest.sha256,
      sizeBytes: manifest.sizeBytes,
    });
    const copy = new NativeDatabase(`${run!.folder}/${BACKUP_FILE}`, { readonly: true });
    try {
      const row = copy.prepare("SELECT system_name AS name FROM system_settings WHERE id = 1").get() as {
        name: string;
      };
      assert.equal(row.name, "Reserve Bank Registry");
      assert.equal(
        (copy.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check,
        "ok",
      );
    } finally {
      copy.close();
    }

    await expectJson(
      await t.request("PUT", "/api/settings/backup", {
        cookie: admin,
        body: { autoBackup: true, backupFrequency: "hourly", backupRetentionCopies: 2 },
      }),
      200,
    );
    advance(3_600_000);
    assert.equal((await runDueBackup(deps))?.status, "completed");
    // An hour idle ended the session: sign in again for "Back up now".
    const again = await t.login();
    const manual = await expectJson(
      await t.request("POST", "/api/settings/backup/run", { cookie: again }),
      202,
    );
    assert.equal(manual.status, "running");
    await expectJson(await t.request("POST", "/api/settings/backup/run", { cookie: again }), 409);
    while ((await lastBackupRun(t.deps))?.status === "running") {
      await new Promise((done) => setTimeout(done, 20));
    }
    assert.equal((await lastBackupRun(t.deps))?.status, "completed");
    const folders: string[] = [];
    for await (const entry of Deno.readDir(t.deps.config.backupDir)) folders.push(entry.name);
    assert.equal(folders.length, 2, "two copies kept");
    assert.ok(!folders.some((name) => run!.folder!.endsWith(name)), "the oldest went");
    const settings = await expectJson(await t.request("GET", "/api/settings", { cookie: again }), 200);
    assert.equal(settings.backup.lastRun.id, manual.id);
    assert.equal((await auditRows(t, "backup")).filter((row) => row.action === "backup").length, 3);
  } finally {
    await t.close();
  }
});

Deno.test("settings: a failed backup is recorded, audited and told to the administrators", async () => {
  const blocker = await Deno.makeTempFile({ prefix: "cbr-not-a-folder-" });
  const t = await createTestApp({ BACKUP_DIR: blocker });
  try {
    const actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "test" };
    const run = await runBackup(t.deps, "scheduled", actor);
    assert.equal(run.status, "failed");
    assert.ok(run.error);
    assert.equal((await lastBackupRun(t.deps))?.status, "failed");
    const [audit] = await auditRows(t, "backup", run.id);
    assert.equal(audit.action, "backup_failed");
    const events = await t.deps.db.read.all<{ kind: string; recipientRoles: string }>(
      sql`SELECT kind, recipient_roles AS recipientRoles FROM events WHERE subject_id = ${run.id}`,
    );
    assert.deepEqual(events.map((event) => [event.kind, JSON.parse(event.recipientRoles)]), [[
      "backup_failed",
      ["administrator"],
    ]]);
  } finally {
    await t.close();
    await Deno.remove(blocker);
  }
});

Deno.test("settings: the General tab heads every report with the system's name, country, currency and its clock", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const general = { ...GENERAL, countryCode: "DE", currency: "EUR", timezone: "CET" };
    await expectJson(await t.request("PUT", "/api/settings/general", { cookie: admin, body: general }), 200);
    const report = await t.request("POST", "/api/reports", {
      cookie: admin,
      body: { type: "institutions", from: "2026-01-01", to: "2026-12-31", format: "xml" },
    });
    assert.equal(report.status, 200);
    const xml = await report.text();
    const root = xml.match(/<report [^>]*>/)![0];
    const attribute = (name: string) => root.match(new RegExp(` ${name}="([^"]*)"`))?.[1];
    assert.equal(attribute("system"), "Reserve Bank Registry");
    assert.equal(attribute("country"), "DE");
    assert.equal(attribute("currency"), "EUR");
    assert.equal(attribute("timezone"), "CET");

    const xlsx = await t.request("POST", "/api/reports", {
      cookie: admin,
      body: { type: "institutions", from: "2026-01-01", to: "2026-12-31", format: "xlsx" },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const header = new Map<string, string>();
    workbook.getWorksheet("Summary")!.eachRow((row) => header.set(row.getCell(1).text, row.getCell(2).text));
    assert.equal(header.get("Country"), "DE");
    assert.equal(header.get("Currency"), "EUR");
    // Central European time is one hour ahead of UTC, two in summer: the local reading and its
    // offset give back the UTC instant to the second.
    const local = header.get("Generated at (CET)")!.match(/^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) \(UTC\+0([12]):00\)$/);
    assert.ok(local, `Generated at (CET): ${header.get("Generated at (CET)")}`);
    const localMs = Date.parse(`${local[1]}T${local[2]}Z`) - Number(local[3]) * 3_600_000;
    assert.equal(localMs, Math.floor(Date.parse(header.get("Generated at")!) / 1000) * 1000);
  } finally {
    await t.close();
  }
});
