import assert from "node:assert/strict";
import fc from "fast-check";
import { buildEdition, type CandidateRecord } from "../../src/domain/directory_files.ts";
import { mergeEdition, MergeOrderError } from "../../src/domain/directory_merge.ts";
import { completeRowsEnd, directoryCsvRows } from "../../src/domain/directory_csv.ts";
import { DIRECTORY_COLUMNS, type DirectoryRecord } from "../../src/domain/directory_layout.ts";

const BLANK = Object.fromEntries(DIRECTORY_COLUMNS.slice(1).map((column) => [column, ""])) as DirectoryRecord;
const KEYS = ["INST|B-1", "INST|B-2", "INST|B-3", "RTC|100", "RTC|101", "BIC|AAAABBCC", "BIC|AAAABBDD"];

const stateArbitrary = fc.record({
  presence: fc.constantFrom("absent", "live", "terminated"),
  name: fc.constantFrom("North", "South", 'Quote "Q", Ltd'),
  announced: fc.boolean(),
});
const historyArbitrary = fc.array(
  fc.array(stateArbitrary, { minLength: KEYS.length, maxLength: KEYS.length }),
  { minLength: 1, maxLength: 8 },
);

function candidatesOf(states: { presence: string; name: string; announced: boolean }[]): CandidateRecord[] {
  return states.flatMap((state, index) => {
    if (state.presence === "absent") return [];
    const [recordType, key] = KEYS[index].split("|");
    const terminated = state.presence === "terminated";
    const record = {
      ...BLANK,
      record_type: recordType,
      key,
      name: state.name,
      status: terminated ? "terminated" : "active",
      deletion_announced: state.announced || terminated ? "Y" : "N",
    };
    return [{ terminated, record }];
  });
}

async function* pagesOf<T>(items: T[], size: number): AsyncGenerator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

async function collect(previous: DirectoryRecord[], candidates: CandidateRecord[]) {
  const full = [];
  const delta = [];
  // Pages of one, two and three records: the merge must not depend on where pages end.
  for await (const batch of mergeEdition(pagesOf(previous, 2), pagesOf(candidates, 3))) {
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
      assert.deepEqual(await collect(previous, candidatesOf(states)), expected);
      previous = expected.full.map((row) => row.record);
    }
  }));
});

Deno.test("the merge refuses a side out of file order or with a key twice", async () => {
  const record = (type: string, key: string) => ({ ...BLANK, record_type: type, key });
  await assert.rejects(collect([record("RTC", "1"), record("INST", "2")], []), MergeOrderError);
  await assert.rejects(
    collect([], [{ record: record("INST", "1"), terminated: false }, {
      record: record("INST", "1"),
      terminated: false,
    }]),
    MergeOrderError,
  );
});

Deno.test("completeRowsEnd cuts CSV text after its last whole row, never inside quotes", () => {
  fc.assert(fc.property(historyArbitrary, fc.nat(), (history, cutAt) => {
    const records = candidatesOf(history[0]).map((candidate) => ({
      flag: "U" as const,
      record: { ...candidate.record, address: '1 Road\r\nFloor 2, "East"' },
    }));
    const text = directoryCsvRows(records);
    const prefix = text.slice(0, text.length === 0 ? 0 : cutAt % (text.length + 1));
    const end = completeRowsEnd(prefix);
    // The cut is a row boundary of the whole text: a prefix of whole rows.
    const boundaries = [0];
    for (const row of records) boundaries.push(boundaries.at(-1)! + directoryCsvRows([row]).length);
    assert.ok(boundaries.includes(end), `cut at ${end}`);
    assert.ok(end <= prefix.length);
    assert.ok(boundaries.filter((b) => b <= prefix.length).at(-1) === end);
  }));
});
