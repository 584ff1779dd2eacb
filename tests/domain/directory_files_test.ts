import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type CandidateRecord,
  FIXED_LINE_LENGTH,
  FIXED_WIDTHS,
  MAX_FIXED_LINE_BYTES,
  overlongMessage,
  writeFixedWidthLine,
} from "../../src/domain/directory_files.ts";
import { buildEdition, candidateRecords, deltaBetween, writeFixedWidth } from "../helpers/directory_reference.ts";
import { mergeEdition, MergeOrderError, type Pages } from "../../src/domain/directory_merge.ts";
import {
  DIRECTORY_COLUMNS,
  type DirectoryRecord,
  recordIdentity,
} from "../../src/domain/directory_layout.ts";

const BLANK = Object.fromEntries(DIRECTORY_COLUMNS.slice(1).map((column) => [column, ""])) as DirectoryRecord;

/** One edition date's registry: per key, absent, live or terminated, with a name variant and an announcement. */
const stateArbitrary = fc.record({
  presence: fc.constantFrom("absent", "live", "terminated"),
  name: fc.constantFrom("North", "South"),
  announced: fc.boolean(),
});
const KEYS = ["INST|B-1", "INST|B-2", "RTC|100", "RTC|101", "BIC|AAAABBCC"];
const historyArbitrary = fc.array(
  fc.array(stateArbitrary, { minLength: KEYS.length, maxLength: KEYS.length }),
  {
    minLength: 1,
    maxLength: 8,
  },
);

function candidatesOf(states: { presence: string; name: string; announced: boolean }[]): CandidateRecord[] {
  return states.flatMap((state, index) => {
    if (state.presence === "absent") return [];
    const [recordType, key] = KEYS[index].split("|");
    const terminated = state.presence === "terminated";
    return [{
      terminated,
      record: {
        ...BLANK,
        record_type: recordType,
        key,
        name: state.name,
        status: terminated ? "terminated" : "active",
        deletion_announced: state.announced || terminated ? "Y" : "N",
      },
    }];
  });
}

Deno.test("for random histories the delta computed from full(n-1) and full(n) equals the published delta", () => {
  fc.assert(fc.property(historyArbitrary, (history) => {
    let previous: DirectoryRecord[] = [];
    for (const states of history) {
      const edition = buildEdition(previous, candidatesOf(states));
      const full = edition.full.map((row) => row.record);
      assert.deepEqual(deltaBetween(previous, full), edition.delta);
      assert.ok(edition.full.every((row) => row.flag !== "D"));
      assert.ok(edition.delta.every((row) => row.flag !== "U"));
      previous = full;
    }
  }));
});

Deno.test("for random histories a record is deleted only after an edition showed its deletion announced", () => {
  fc.assert(fc.property(historyArbitrary, (history) => {
    let previous: DirectoryRecord[] = [];
    for (const states of history) {
      const edition = buildEdition(previous, candidatesOf(states));
      const before = new Map(previous.map((record) => [recordIdentity(record), record]));
      for (const row of edition.delta.filter((row) => row.flag === "D")) {
        assert.equal(before.get(recordIdentity(row.record))?.deletion_announced, "Y");
      }
      for (const candidate of candidatesOf(states).filter((candidate) => candidate.terminated)) {
        const published = edition.full.find((row) =>
          recordIdentity(row.record) === recordIdentity(candidate.record)
        );
        if (published) assert.equal(published.record.deletion_announced, "Y");
      }
      previous = edition.full.map((row) => row.record);
    }
  }));
});

const snapshotAt = (terminatedAt: string | null) => ({
  institutions: [
    {
      id: "i1",
      registrationNumber: "B-1",
      name: "North Bank",
      type: "commercial",
      address: "1 Road",
      phoneNumber: "+1",
      emailAddress: "a@b.c",
      status: "active",
      createdAt: "2026-01-02T10:00:00.000Z",
      successorId: terminatedAt ? "i2" : null,
      terminatedAt,
    },
    { id: "i2", registrationNumber: "B-2", name: "South Bank", type: "savings", status: "active" },
  ],
  routingCodes: [{
    id: "r1",
    institutionId: "i1",
    code: "100",
    branchCode: "01",
    status: "active",
    terminatedAt,
  }],
  swiftCodes: [],
});

Deno.test("a terminated institution is flagged for one edition, then deleted, carrying its successor", () => {
  const first = buildEdition([], candidateRecords(snapshotAt(null), "2026-03-01T00:00:00.000Z"));
  assert.deepEqual(first.full.map((row) => [row.flag, row.record.key, row.record.deletion_announced]), [
    ["A", "B-1", "N"],
    ["A", "B-2", "N"],
    ["A", "100", "N"],
  ]);
  assert.equal(first.full[2].record.institution_key, "B-1");
  assert.equal(first.full[2].record.name, "North Bank");
  const terminated = snapshotAt("2026-03-15T00:00:00.000Z");
  const second = buildEdition(
    first.full.map((row) => row.record),
    candidateRecords(terminated, "2026-04-01T00:00:00.000Z"),
  );
  assert.deepEqual(
    second.delta.map((row) => [row.flag, row.record.key, row.record.status, row.record.deletion_announced]),
    [
      ["M", "B-1", "terminated", "Y"],
      ["M", "100", "terminated", "Y"],
    ],
  );
  assert.equal(second.delta[0].record.successor_key, "B-2");
  const third = buildEdition(
    second.full.map((row) => row.record),
    candidateRecords(terminated, "2026-05-01T00:00:00.000Z"),
  );
  assert.deepEqual(third.delta.map((row) => [row.flag, row.record.key]), [["D", "B-1"], ["D", "100"]]);
  assert.deepEqual(third.full.map((row) => [row.flag, row.record.key]), [["U", "B-2"]]);
});

Deno.test("the fixed-width file has one line of the documented length per record, and refuses what does not fit", () => {
  const record = {
    ...BLANK,
    record_type: "INST",
    key: "B-1",
    name: "Zürich 🏦 Bank",
    address: "1 Road\nTown",
  };
  const text = writeFixedWidth([{ flag: "A", record }]);
  const line = text.slice(0, -2);
  assert.equal(text.slice(-2), "\r\n");
  assert.equal([...line].length, FIXED_LINE_LENGTH);
  assert.ok(line.startsWith("AINSTB-1"));
  assert.ok(line.includes("1 Road Town"));
  const long = { ...record, name: "x".repeat(FIXED_WIDTHS.name + 1) };
  assert.equal(overlongMessage(long), `INST B-1: name is 141 characters, the fixed-width layout holds 140`);
  assert.throws(() => writeFixedWidth([{ flag: "A", record: long }]), RangeError);
});

/** Values of every kind the fixed-width writer treats apart (plain, line breaks and tabs, accents, pairs), up to one over the width. */
const fixedWidthText = (width: number) =>
  fc.string({
    unit: fc.constantFrom("a", "Z", "1", " ", ",", '"', "\r", "\n", "\t", "\u0001", "é", "€", "🏦", "~"),
    maxLength: width + 1,
  });

Deno.test("a fixed-width line written as bytes is the UTF-8 of the text line, and refuses the same records", () => {
  const recordArbitrary = fc.record(
    Object.fromEntries(
      DIRECTORY_COLUMNS.slice(1).map((column) => [column, fixedWidthText(FIXED_WIDTHS[column])]),
    ),
  ) as fc.Arbitrary<DirectoryRecord>;
  let fitted = 0;
  let refused = 0;
  fc.assert(
    fc.property(fc.constantFrom("A", "M", "D", "U" as const), recordArbitrary, fc.nat(7), (flag, record, offset) => {
      const row = { flag, record };
      const target = new Uint8Array(offset + MAX_FIXED_LINE_BYTES);
      let text: string;
      try {
        text = writeFixedWidth([row]);
      } catch (error) {
        assert.throws(() => writeFixedWidthLine(row, target, offset), { message: (error as Error).message });
        refused++;
        return;
      }
      const end = writeFixedWidthLine(row, target, offset);
      fitted++;
      assert.deepEqual(target.subarray(offset, end), new TextEncoder().encode(text));
    }),
    { numRuns: 300 },
  );
  assert.ok(fitted > 30 && refused > 30, `both outcomes are tried: ${fitted} fitted, ${refused} refused`);
});

async function* pagesOf<T>(items: T[], size: number): AsyncGenerator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

async function merged(previous: Pages<DirectoryRecord>, candidates: Pages<CandidateRecord>) {
  const full = [];
  const delta = [];
  for await (const batch of mergeEdition(previous, candidates)) {
    for (const row of batch) {
      if (row.full) full.push(row.full);
      if (row.delta) delta.push(row.delta);
    }
  }
  return { full, delta };
}

Deno.test("for random histories the streaming merge gives exactly the edition's full and delta files", async () => {
  await fc.assert(fc.asyncProperty(historyArbitrary, async (history) => {
    let previous: DirectoryRecord[] = [];
    for (const states of history) {
      const expected = buildEdition(previous, candidatesOf(states));
      // Pages of two and three records: the merge must not depend on where pages end.
      assert.deepEqual(await merged(pagesOf(previous, 2), pagesOf(candidatesOf(states), 3)), expected);
      previous = expected.full.map((row) => row.record);
    }
  }));
});

Deno.test("the merge refuses a side out of file order or with a key twice", async () => {
  const record = (type: string, key: string) => ({ ...BLANK, record_type: type, key });
  await assert.rejects(merged([[record("RTC", "1"), record("INST", "2")]], []), MergeOrderError);
  const twice = { record: record("INST", "1"), terminated: false };
  await assert.rejects(merged([], [[twice], [twice]]), MergeOrderError);
});
