import assert from "node:assert/strict";
import { routingCodes, swiftCodes } from "../../db/schema.ts";
import type { Role } from "../../src/domain/access.ts";
import { formatRoutingCode } from "../../src/domain/routing_code.ts";
import type { SearchSource } from "../../src/server/http/search_sources.ts";
import { MAX_HITS_PER_KIND } from "../../src/server/features/search/schemas.ts";
import { searchEverywhere } from "../../src/server/features/search/service.ts";
import { createStaff, seededStaff } from "../helpers/staff.ts";
import { insertInstitution } from "./codes_helpers.ts";
import { createTestApp, expectJson, type Requester, type TestApp } from "../helpers/test_app.ts";

const ROUTING_CODE = formatRoutingCode("MER", 1);
const BICS = ["MERIUS33", "MERIUS33NYC", "MERIGB2L"];
const ACCOUNT_NUMBER = "LIQ-MER-0001";
const STAFF_EMAIL = "marta.meridian@centralbank.test";

interface Group {
  kind: string;
  label: string;
  hits: { id: string; label: string; detail: string; link: string }[];
  more: boolean;
  timedOut: boolean;
}

interface Registry {
  t: TestApp;
  admin: Requester;
  institutionId: string;
}

/** One institution with a routing code, three BICs and an account, and one more member of staff. */
async function withRegistry(fn: (registry: Registry) => Promise<void>) {
  const t = await createTestApp();
  try {
    const desk = await t.desk();
    const institution = {
      id: await insertInstitution(t, "Meridian Commercial Bank", { registrationNumber: "CBR-CO-00002" }),
    };
    await t.deps.db.transaction(async (tx) => {
      await tx.insert(routingCodes).values({
        id: crypto.randomUUID(),
        institutionId: institution.id,
        code: ROUTING_CODE,
        prefix: "MER",
      });
      for (const [i, bicCode] of BICS.entries()) {
        await tx.insert(swiftCodes).values({
          id: crypto.randomUUID(),
          institutionId: institution.id,
          bicCode,
          bankCode: bicCode.slice(0, 4),
          countryCode: bicCode.slice(4, 6),
          locationCode: bicCode.slice(6, 8),
          branchCode: bicCode.slice(8) || null,
          createdAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
        });
      }
    });
    await expectJson(
      await desk("POST", "/api/ledger-accounts", {
        body: {
          accountNumber: ACCOUNT_NUMBER,
          accountType: "liquid",
          accountName: "Meridian settlement",
          institutionId: institution.id,
        },
      }),
      201,
    );
    await createStaff(t, desk.adminCookie, STAFF_EMAIL, ["auditor"]);
    await fn({ t, admin: t.as(desk.adminCookie), institutionId: institution.id });
  } finally {
    await t.close();
  }
}

async function search(req: Requester, q: string, limit?: number): Promise<Group[]> {
  const params = new URLSearchParams({ q, ...(limit === undefined ? {} : { limit: String(limit) }) });
  const body = await expectJson(await req("GET", `/api/search/everywhere?${params}`), 200);
  assert.equal(body.query, q.trim());
  return body.groups;
}

const group = (groups: Group[], kind: string) => groups.find((g) => g.kind === kind)!;
const labels = (groups: Group[], kind: string) => group(groups, kind).hits.map((hit) => hit.label);

Deno.test("GET /api/search/everywhere finds institutions, routing codes, BICs, accounts and users, each linked to its screen", async () => {
  await withRegistry(async ({ admin, institutionId }) => {
    const groups = await search(admin, "meri");
    assert.deepEqual(groups.map((g) => [g.kind, g.label]), [
      ["institution", "Institutions"],
      ["routing_code", "Routing codes"],
      ["bic", "BICs"],
      ["account", "Accounts"],
      ["user", "Users"],
    ]);
    const institutionPage = `/institutions/${institutionId}`;
    assert.deepEqual(group(groups, "institution").hits, [{
      id: institutionId,
      label: "Meridian Commercial Bank",
      detail: "CBR-CO-00002 · commercial · active",
      link: institutionPage,
    }]);
    assert.deepEqual(labels(groups, "bic"), ["MERIGB2L", "MERIUS33NYC", "MERIUS33"], "newest first");
    assert.equal(group(groups, "bic").hits[2].detail, "BIC · Meridian Commercial Bank · US · active");
    assert.ok(group(groups, "bic").hits.every((hit) => hit.link === institutionPage));
    assert.deepEqual(
      group(groups, "account").hits.map(({ label, detail, link }) => ({ label, detail, link })),
      [{
        label: `${ACCOUNT_NUMBER} · Meridian settlement`,
        detail: "liquid account · USD · Meridian Commercial Bank",
        link: institutionPage,
      }],
    );
    assert.deepEqual(group(groups, "user").hits.map(({ label, link }) => ({ label, link })), [
      { label: STAFF_EMAIL, link: "/users" },
    ]);
    assert.ok(groups.every((g) => !g.more && !g.timedOut));

    const byCode = await search(admin, ROUTING_CODE.toLowerCase());
    assert.deepEqual(
      group(byCode, "routing_code").hits.map(({ label, detail, link }) => ({ label, detail, link })),
      [{
        label: ROUTING_CODE,
        detail: "Routing code · Meridian Commercial Bank · active",
        link: institutionPage,
      }],
    );
    assert.deepEqual(labels(byCode, "institution"), [], "a code is not an institution's text");
    assert.deepEqual(labels(await search(admin, "liq-mer"), "account"), [
      `${ACCOUNT_NUMBER} · Meridian settlement`,
    ]);
  });
});

Deno.test("GET /api/search/everywhere finds only what the caller may list: users for administrators alone", async () => {
  await withRegistry(async ({ t, admin }) => {
    const kinds = async (req: Requester) => (await search(req, "meri")).map((g) => g.kind);
    const all = ["institution", "routing_code", "bic", "account", "user"];
    assert.deepEqual(await kinds(admin), all);
    for (const role of ["operator", "approver", "auditor"] as Role[]) {
      const staff = await seededStaff(t, `${role}-searcher@centralbank.test`, [role]);
      assert.deepEqual(await kinds(t.as(staff.cookie)), all.filter((kind) => kind !== "user"), role);
    }
    const anonymous = await t.request("GET", "/api/search/everywhere?q=meri");
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  });
});

Deno.test("GET /api/search/everywhere gives at most `limit` hits of each kind and says when more match", async () => {
  await withRegistry(async ({ admin }) => {
    const two = await search(admin, "MERI", 2);
    assert.deepEqual(labels(two, "bic"), ["MERIGB2L", "MERIUS33NYC"]);
    assert.equal(group(two, "bic").more, true);
    assert.equal(group(two, "institution").more, false);
    const three = await search(admin, "MERI", 3);
    assert.equal(group(three, "bic").hits.length, 3);
    assert.equal(group(three, "bic").more, false);
    assert.equal(group(await search(admin, "meri"), "bic").hits.length, 3, "five of each kind unless asked");
  });
});

Deno.test("GET /api/search/everywhere matches words from the start below three characters, anywhere from three, as the registry search does", async () => {
  await withRegistry(async ({ admin, institutionId }) => {
    for (
      const [q, found] of [["Me", true], ["ri", false], ["ridian", true], ["comm", true], ["co-0", true], [
        "%",
        false,
      ]] as const
    ) {
      const lookup = await expectJson(
        await admin("GET", `/api/search?type=institution&query=${encodeURIComponent(q)}`),
        200,
      );
      const groups = await search(admin, q);
      assert.deepEqual(
        group(groups, "institution").hits.map((hit) => hit.id),
        lookup.map((i: { id: string }) => i.id),
        q,
      );
      assert.deepEqual(lookup.map((i: { id: string }) => i.id), found ? [institutionId] : [], q);
    }
    const account = `${ACCOUNT_NUMBER} · Meridian settlement`;
    const findsAccount = async (q: string) => labels(await search(admin, q), "account").includes(account);
    assert.equal(await findsAccount("se"), true, "a word's start");
    assert.equal(await findsAccount("et"), false, "two letters inside a word");
    assert.equal(await findsAccount("ttleme"), true, "three or more anywhere");
    assert.deepEqual(labels(await search(admin, "_"), "account"), [], "LIKE's wildcards are literal");
    const findsUser = async (q: string) => labels(await search(admin, q), "user").includes(STAFF_EMAIL);
    assert.equal(await findsUser("me"), true, "a word of the address after a dot");
    assert.equal(await findsUser("ar"), false);
    assert.equal(await findsUser("RTA.MERID"), true, "any case");
  });
});

Deno.test("GET /api/search/everywhere answers 400 naming the field for a missing, blank, long or NUL-bearing text and a bad limit", async () => {
  await withRegistry(async ({ admin }) => {
    for (
      const [query, field] of [
        ["", "q"],
        ["q=", "q"],
        ["q=%20%20", "q"],
        [`q=${"a".repeat(101)}`, "q"],
        ["q=me%00ri", "q"],
        ["q=meri&limit=0", "limit"],
        [`q=meri&limit=${MAX_HITS_PER_KIND + 1}`, "limit"],
        ["q=meri&limit=two", "limit"],
        ["q=meri&limit=2.5", "limit"],
      ]
    ) {
      const body = await expectJson(await admin("GET", `/api/search/everywhere?${query}`), 400);
      assert.equal(body.code, "validation");
      assert.ok(body.fields[field], `${query} names ${field}: ${JSON.stringify(body)}`);
    }
    assert.equal((await search(admin, "a".repeat(100))).length, 5, "100 characters are accepted");
  });
});

Deno.test("search everywhere answers the kinds that finish in time and marks the one that did not", async () => {
  const source = (kind: string, find: SearchSource["find"]): SearchSource => ({
    kind,
    label: kind,
    readRoute: ["GET", "/api/institutions"],
    find,
  });
  const hit = { id: "1", label: "Quick", detail: "", link: "/" };
  let release = () => {};
  const slow = new Promise<never>((_, reject) => (release = () => reject(new Error("finished late"))));
  const result = await searchEverywhere(
    [
      source("quick", () => Promise.resolve({ hits: [hit], more: false })),
      source("slow", () => slow),
    ],
    ["auditor"],
    { q: "qu", limit: 5 },
    50,
  );
  release();
  await slow.catch(() => {});
  assert.deepEqual(result.groups, [
    { kind: "quick", label: "quick", hits: [hit], more: false, timedOut: false },
    { kind: "slow", label: "slow", hits: [], more: false, timedOut: true },
  ]);
});
