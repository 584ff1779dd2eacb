import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { auditTrail, routingCodes, SYSTEM_USER_ID } from "../../db/schema.ts";
import { formatRoutingCode, validateRoutingCode } from "../../src/domain/routing_code.ts";
import { routingCodesDemoSeeder } from "../../src/server/features/routing_codes/seed.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import { insertInstitution } from "./codes_helpers.ts";

const CONCURRENT_ASSIGNMENTS = 50;
const SECOND_PROCESS_ASSIGNMENTS = 30;

function assignBody(institutionId: string, prefix = "ABC", extra: Record<string, unknown> = {}) {
  return { institutionId, prefix, branchCode: "001", description: "Head office clearing", ...extra };
}

async function serialsOf(t: TestApp, prefix: string): Promise<number[]> {
  const rows = await t.deps.db.read.select({ code: routingCodes.code }).from(routingCodes)
    .where(eq(routingCodes.prefix, prefix)).all();
  return rows.map((row) => {
    const parsed = validateRoutingCode(row.code);
    assert(parsed.ok, row.code);
    return parsed.value.serial;
  }).sort((a, b) => a - b);
}

Deno.test("POST /api/routing-codes/generate-preview gives the next code for the prefix without reserving it", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const preview = async (prefix: unknown) =>
      await expectJson(await req("POST", "/api/routing-codes/generate-preview", { body: { prefix } }), 200);
    assert.deepEqual(await preview("ABC"), { code: formatRoutingCode("ABC", 1) });
    assert.deepEqual(await preview(" abc "), { code: formatRoutingCode("ABC", 1) });
    assert.deepEqual(
      await preview("ABC"),
      { code: formatRoutingCode("ABC", 1) },
      "a preview reserves nothing",
    );
    await expectJson(await req("POST", "/api/routing-codes", { body: assignBody(institutionId) }), 201);
    assert.deepEqual(await preview("ABC"), { code: formatRoutingCode("ABC", 2) });
    assert.deepEqual(await preview("XYZ"), { code: formatRoutingCode("XYZ", 1) });
    assert.equal((await t.deps.db.read.select().from(routingCodes).all()).length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/routing-codes/generate-preview answers 400 unless the prefix is exactly three letters", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const cases: [unknown, string][] = [
      ["AB", "Prefix must be exactly 3 letters (A-Z)"],
      ["ABCD", "Prefix must be exactly 3 letters (A-Z)"],
      ["AB1", "Prefix must be exactly 3 letters (A-Z)"],
      ["A C", "Prefix must be exactly 3 letters (A-Z)"],
      ["ÄBC", "Prefix must be exactly 3 letters (A-Z)"],
      // toUpperCase() would read these as ABC-like ASCII prefixes ("ſ" → "S", "ı" → "I", "ﬁ" → "FI").
      ["\u017Fbc", "Prefix must be exactly 3 letters (A-Z)"],
      ["\u0131bc", "Prefix must be exactly 3 letters (A-Z)"],
      ["\uFB01x", "Prefix must be exactly 3 letters (A-Z)"],
      ["", "Prefix must be exactly 3 letters (A-Z)"],
      [undefined, "Required"],
    ];
    for (const [prefix, message] of cases) {
      const res = await expectJson(
        await req("POST", "/api/routing-codes/generate-preview", { body: { prefix } }),
        400,
      );
      assert.deepEqual(res.fields, { prefix: message }, String(prefix));
    }
    const wrongType = await expectJson(
      await req("POST", "/api/routing-codes/generate-preview", { body: { prefix: 123 } }),
      400,
    );
    assert.ok(wrongType.fields.prefix);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/routing-codes assigns the next code with MOD 97-10 check digits, answers 201 and is audited", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const first = await expectJson(
      await req("POST", "/api/routing-codes", { body: assignBody(institutionId, "cbr") }),
      201,
    );
    const { id, createdAt, updatedAt, createdBy, ...fields } = first;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(createdAt, updatedAt);
    assert.ok(createdBy);
    assert.deepEqual(fields, {
      institutionId,
      code: formatRoutingCode("CBR", 1),
      prefix: "CBR",
      branchCode: "001",
      description: "Head office clearing",
      status: "active",
      successorCode: null,
      terminatedAt: null,
      deletionAnnouncedAt: null,
      deletionAnnounced: false,
    });
    assert.match(first.code, /^CBR000001\d{2}$/);
    const second = await expectJson(
      await req("POST", "/api/routing-codes", {
        body: assignBody(institutionId, "CBR", { branchCode: "", description: " " }),
      }),
      201,
    );
    assert.equal(second.code, formatRoutingCode("CBR", 2));
    assert.equal(second.branchCode, null);
    assert.equal(second.description, null);

    const audits = await t.deps.db.read.select().from(auditTrail).where(
      eq(auditTrail.entityType, "routing_code"),
    )
      .orderBy(auditTrail.seq).all();
    assert.deepEqual(audits.map((row) => [row.entityId, row.action]), [[first.id, "create"], [
      second.id,
      "create",
    ]]);
    assert.deepEqual((audits[0].changes as { after: unknown }).after, first);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/routing-codes continues after the highest serial used for the prefix", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    await t.deps.db.transaction(async (tx) => {
      for (const serial of [7, 512, 40]) {
        await tx.insert(routingCodes).values({
          id: crypto.randomUUID(),
          institutionId,
          code: formatRoutingCode("KLM", serial),
          prefix: "KLM",
        });
      }
    });
    const next = await expectJson(
      await req("POST", "/api/routing-codes", { body: assignBody(institutionId, "KLM") }),
      201,
    );
    assert.equal(next.code, formatRoutingCode("KLM", 513));
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/routing-codes rejects an unknown institution and invalid fields with 400 naming the field", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const unknown = await expectJson(
      await req("POST", "/api/routing-codes", { body: assignBody(crypto.randomUUID()) }),
      400,
    );
    assert.deepEqual(unknown.fields, { institutionId: "Institution not found" });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ institutionId: undefined }, "institutionId", "Required"],
      [{ institutionId: "  " }, "institutionId", "Required"],
      [{ prefix: "AB" }, "prefix", "Prefix must be exactly 3 letters (A-Z)"],
      [{ prefix: undefined }, "prefix", "Required"],
      [{ branchCode: "12345678901" }, "branchCode", "Too big: expected string to have <=10 characters"],
      [
        { description: "x".repeat(1001) },
        "description",
        "Too big: expected string to have <=1000 characters",
      ],
    ];
    for (const [override, field, message] of cases) {
      const res = await expectJson(
        await req("POST", "/api/routing-codes", { body: assignBody(institutionId, "ABC", override) }),
        400,
      );
      assert.equal(res.fields[field], message, JSON.stringify(override));
    }
    assert.equal((await t.deps.db.read.select().from(routingCodes).all()).length, 0);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/routing-codes lists codes newest first", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    assert.deepEqual(await expectJson(await req("GET", "/api/routing-codes"), 200), []);
    const assigned = [];
    for (const prefix of ["AAA", "BBB", "AAA"]) {
      assigned.push(
        await expectJson(
          await req("POST", "/api/routing-codes", { body: assignBody(institutionId, prefix) }),
          201,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const list = await expectJson(await req("GET", "/api/routing-codes"), 200);
    // Issue 23: each list row also names its institution.
    assert.deepEqual(list, assigned.reverse().map((code) => ({
      ...code,
      institutionName: "Meridian Commercial Bank",
      pendingChanges: [],
    })));
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/routing-codes/{code}: 200 when assigned, 404 when unknown, 400 when the check digits are wrong", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const record = await expectJson(
      await req("POST", "/api/routing-codes", { body: assignBody(institutionId) }),
      201,
    );
    assert.deepEqual(await expectJson(await req("GET", `/api/routing-codes/${record.code}`), 200), {
      ...record,
      successor: null,
    });

    const unknown = await expectJson(
      await req("GET", `/api/routing-codes/${formatRoutingCode("ABC", 99)}`),
      404,
    );
    assert.equal(unknown.message, "Routing code not found");

    const body = record.code.slice(0, 9);
    const wrongDigits = String((Number(record.code.slice(9)) + 1) % 100).padStart(2, "0");
    const wrong = await expectJson(await req("GET", `/api/routing-codes/${body}${wrongDigits}`), 400);
    assert.deepEqual(wrong.fields, { code: `wrong check digits in routing code ${body}${wrongDigits}` });
    const cases: [string, string][] = [
      ["ABC00000", "routing code must be 11 characters, got 8"],
      ["abc00000197", 'routing code prefix (characters 1-3) must be three upper-case letters, got "abc"'],
      ["ABC0000X197", 'routing code serial (characters 4-9) must be six digits, got "0000X1"'],
      ["ABC000001X7", 'routing code check digits (characters 10-11) must be two digits, got "X7"'],
      // Serial 000000 with its right check pair: invalid (400), not merely unknown (404).
      [
        "ABC00000027",
        'routing code serial (characters 4-9) must be from 000001 to 999999 (serials start at 1), got "000000"',
      ],
    ];
    for (const [code, message] of cases) {
      const res = await expectJson(await req("GET", `/api/routing-codes/${code}`), 400);
      assert.deepEqual(res.fields, { code: message }, code);
    }
  } finally {
    await t.close();
  }
});

Deno.test("50 concurrent assignments for one prefix give 50 distinct valid codes, serials 1 to 50, never a 500", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const responses = await Promise.all(
      Array.from(
        { length: CONCURRENT_ASSIGNMENTS },
        () => req("POST", "/api/routing-codes", { body: assignBody(institutionId, "PAR") }),
      ),
    );
    const codes = await Promise.all(
      responses.map(async (res) => (await expectJson(res, 201)).code as string),
    );
    assert.equal(new Set(codes).size, CONCURRENT_ASSIGNMENTS);
    for (const code of codes) assert(validateRoutingCode(code).ok, code);
    assert.deepEqual(
      await serialsOf(t, "PAR"),
      Array.from({ length: CONCURRENT_ASSIGNMENTS }, (_, i) => i + 1),
    );
  } finally {
    await t.close();
  }
});

Deno.test("assignments from a second process on the same database never duplicate a code", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("./fixtures/assign_routing_codes.ts", import.meta.url).pathname,
        t.deps.db.url,
        institutionId,
        "MPX",
        String(SECOND_PROCESS_ASSIGNMENTS),
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    const nextLine = async () => {
      while (!buffered.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) throw new Error("second process ended early");
        buffered += value;
      }
      const end = buffered.indexOf("\n");
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      return line;
    };
    assert.equal(await nextLine(), "ready");
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("go\n"));
    await writer.close();
    const responses = await Promise.all(
      Array.from(
        { length: SECOND_PROCESS_ASSIGNMENTS },
        () => req("POST", "/api/routing-codes", { body: assignBody(institutionId, "MPX") }),
      ),
    );
    const ours = await Promise.all(responses.map(async (res) => (await expectJson(res, 201)).code as string));
    const theirs = JSON.parse(await nextLine()) as string[];
    await lines.cancel();
    assert((await child.status).success);
    const all = [...ours, ...theirs];
    assert.equal(new Set(all).size, 2 * SECOND_PROCESS_ASSIGNMENTS);
    assert.deepEqual(
      await serialsOf(t, "MPX"),
      Array.from({ length: 2 * SECOND_PROCESS_ASSIGNMENTS }, (_, i) => i + 1),
    );
  } finally {
    await t.close();
  }
});

Deno.test("the routing-code demo seed assigns audited codes to active institutions once, and skips without any", async () => {
  const t = await createTestApp();
  try {
    const lines: string[] = [];
    await routingCodesDemoSeeder(t.deps, (line) => lines.push(line), () => {});
    assert.deepEqual(lines, ["Routing codes demo: skipped, no active institutions"]);
    await insertInstitution(t, "Pending Bank", { status: "pending" });
    // Distinct registration times: the seeder takes institutions oldest first, and two inserts in
    // the same millisecond would leave the order to their random ids.
    const first = await insertInstitution(t, "First Demo Bank", { createdAt: "2026-01-01T00:00:00.000Z" });
    const second = await insertInstitution(t, "Second Demo Bank", { createdAt: "2026-01-01T00:00:01.000Z" });
    await routingCodesDemoSeeder(t.deps, (line) => lines.push(line), () => {});
    assert.equal(lines[1], "Routing codes demo: assigned 3 codes");
    const rows = await t.deps.db.read.select().from(routingCodes).all();
    assert.deepEqual(
      rows.map((row) => [row.institutionId, row.code]).sort(),
      [
        [first, formatRoutingCode("CBR", 1)],
        [first, formatRoutingCode("CBR", 2)],
        [second, formatRoutingCode("MCB", 1)],
      ].sort(),
    );
    const audits = await t.deps.db.read.select().from(auditTrail).where(
      eq(auditTrail.entityType, "routing_code"),
    ).all();
    assert.equal(audits.length, 3);
    assert(audits.every((row) => row.performedBy === SYSTEM_USER_ID));
    await routingCodesDemoSeeder(t.deps, (line) => lines.push(line), () => {});
    assert.equal(lines.length, 2);
    assert.equal((await t.deps.db.read.select().from(routingCodes).all()).length, 3);
  } finally {
    await t.close();
  }
});
