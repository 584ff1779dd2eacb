import assert from "node:assert/strict";
import type { DirectoryRecord } from "../../src/domain/directory_layout.ts";
import {
  type ExistingInstitution,
  type ImportLine,
  isValidLei,
  planImport,
  type RegistrySnapshot,
} from "../../src/domain/registry_import.ts";
import { formatRoutingCode } from "../../src/domain/routing_code.ts";
import { codeRecord, institutionRecord } from "../helpers/directory_import.ts";

const lines = (...records: DirectoryRecord[]): ImportLine[] =>
  records.map((record, index) => ({ line: index + 2, flag: "A", record }));

const BANK: ExistingInstitution = {
  id: "inst-1",
  registrationNumber: "REG-1",
  name: "Imported Bank REG-1",
  type: "commercial",
  lei: null,
  address: "REG-1 Import Street",
  phoneNumber: "+1 202 555 0199",
  emailAddress: "ops@reg-1.example",
  status: "pending",
  terminatedAt: null,
};

function registry(): RegistrySnapshot {
  return {
    at: "2027-01-01T00:00:00.000Z",
    institutions: new Map([["reg-1", BANK]]),
    registrationNumbers: new Map([["inst-1", "REG-1"]]),
    codes: new Map(),
    bics: new Map([["ABCDDEFF", {
      id: "bic-1",
      bicCode: "ABCDDEFFXXX",
      institutionId: "inst-1",
      status: "active",
      terminatedAt: null,
    }]]),
  };
}

Deno.test("LEI: published LEIs of well-known banks are valid; a changed character or a swap is not", () => {
  for (const lei of ["7LTWFZYICNSX8D621K86", "7H6GLXDRUGQFU57RNE97", "R0MUWSFPU8MPRO8K5P83"]) {
    assert.equal(isValidLei(lei), true, lei);
  }
  assert.equal(isValidLei("7LTWFZYICNSX8D621K87"), false);
  assert.equal(isValidLei("7LTWFZYICNSX8D612K86"), false);
  assert.equal(isValidLei("7ltwfzyicnsx8d621k86"), false, "lower case is not an LEI");
  assert.equal(isValidLei("7LTWFZYICNSX8D621K8"), false);
});

Deno.test("import plan: unchanged, modified and added records against the registry, keys without case", () => {
  const plan = planImport(
    lines(
      institutionRecord("reg-1", {
        status: "pending",
        name: BANK.name,
        address: BANK.address,
        email_address: BANK.emailAddress,
      }),
      institutionRecord("REG-2"),
      codeRecord("RTC", formatRoutingCode("ABC", 7), "REG-2"),
      codeRecord("BIC", "ABCDDEFF", "REG-2"),
    ),
    registry(),
  );
  assert.deepEqual(plan.errors, []);
  assert.deepEqual(plan.records.map((record) => [record.key, record.action]), [
    ["reg-1", "unchanged"],
    ["REG-2", "add"],
    [formatRoutingCode("ABC", 7), "add"],
    ["ABCDDEFF", "modify"],
  ]);
  assert.deepEqual(plan.records[3].fields, { institutionKey: "REG-2" });
  assert.deepEqual(plan.records[3].before, { institutionKey: "REG-1" });
});

Deno.test("import plan: duplicates (a BIC and its XXX twin), lifecycle moves and D flags are errors by line and field", () => {
  const plan = planImport([
    ...lines(
      institutionRecord("REG-1", { status: "suspended" }),
      codeRecord("BIC", "WXYZDEFF", "REG-1"),
      codeRecord("BIC", "WXYZDEFFXXX", "REG-1"),
    ),
    { line: 5, flag: "D", record: institutionRecord("REG-9") },
  ], registry());
  assert.deepEqual(plan.errors, [
    {
      line: 2,
      field: "status",
      message: "An institution that is pending cannot become suspended; allowed: active, terminated",
    },
    { line: 4, field: "key", message: "Duplicate of line 3" },
    {
      line: 5,
      field: "change_flag",
      message: "An import never deletes: remove the line (D records are not imported)",
    },
  ]);
  assert.equal(plan.counts.bics.invalid, 1);
  assert.equal(plan.counts.institutions.invalid, 2);
});

Deno.test("import plan: a record terminated by now is not imported over; one terminated later still is", () => {
  const terminated = registry();
  const bank = { ...BANK, terminatedAt: "2026-12-31T00:00:00.000Z" };
  terminated.institutions = new Map([["reg-1", bank]]);
  const plan = planImport(lines(institutionRecord("REG-1", { status: "active" })), terminated);
  assert.deepEqual(plan.errors.map(({ line, field, message }) => [line, field, message]), [
    [2, "key", "Terminated on 2026-12-31T00:00:00.000Z: an import does not change a terminated record"],
  ]);
  const later = planImport(
    lines(institutionRecord("REG-1", { status: "active" })),
    { ...terminated, at: "2026-06-01T00:00:00.000Z" },
  );
  assert.deepEqual(later.errors, []);
  assert.equal(later.records[0].action, "modify");
});
