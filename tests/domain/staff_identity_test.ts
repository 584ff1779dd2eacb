import assert from "node:assert/strict";
import { parseConfusables, skeleton } from "../../src/domain/confusables.ts";
import { personName, staffEmail } from "../../src/domain/staff_identity.ts";

const TABLE = parseConfusables(
  await Deno.readTextFile(new URL("../../db/reference/unicode_confusables_17.0.0.txt", import.meta.url)),
);
const names = (codePoint: number) => TABLE.names.get(codePoint);
const refusal = (raw: string) => {
  const result = staffEmail(raw, names);
  assert(!result.ok, `${JSON.stringify(raw)} was accepted`);
  return result.error;
};

Deno.test("e-mail: trimmed and lower-cased, so case variants are one address", () => {
  assert.deepEqual(staffEmail("  Admin@Example.ORG\t\n"), { ok: true, value: "admin@example.org" });
  assert.deepEqual(staffEmail("jane.o'neil+ops@cb.example"), { ok: true, value: "jane.o'neil+ops@cb.example" });
});

Deno.test("e-mail: a NUL, a zero-width space or a bidi override is named with its position", () => {
  assert.deepEqual(refusal("admin@example.org\u0000\u0000"), {
    code: "invalid_email",
    message: "character U+0000 (null) at position 18 is not allowed",
    field: "email",
  });
  assert.equal(refusal("adm\u200bin@example.org").message, "character U+200B (zero width space) at position 4 is not allowed");
  assert.equal(
    refusal("admin\u202e@example.org").message,
    "character U+202E (right-to-left override) at position 6 is not allowed",
  );
  assert.equal(
    refusal("admin@exam\u200dple.org").message,
    "character U+200D (zero width joiner) at position 11 is not allowed",
  );
  assert.equal(refusal("ad min@example.org").message, "character U+0020 (space) at position 3 is not allowed");
  // A supplementary character counts as one position.
  assert.match(refusal("\u{1D41A}dmin@example.org").message, /^character U\+1D41A \(mathematical bold small a\) at position 1 /);
});

Deno.test("e-mail: a Cyrillic look-alike before the @ is refused by name; in the domain its skeleton is the Latin one", () => {
  assert.equal(
    refusal("\u0430dmin@example.org").message,
    "character U+0430 (cyrillic small letter a) at position 1 is not allowed: the part before the @ must be plain ASCII",
  );
  const lookAlike = staffEmail("admin@ex\u0430mple.org");
  assert(lookAlike.ok);
  assert.notEqual(lookAlike.value, "admin@example.org");
  assert.equal(skeleton(lookAlike.value, TABLE), skeleton("admin@example.org", TABLE));
});

Deno.test("e-mail: shapes other than local@domain.tld are refused", () => {
  for (const raw of ["", "admin", "a@@b.org", "a@b@c.org", "@example.org", "a@example", ".a@example.org", "a..b@example.org", "a@-x.org", "a@x..org"]) {
    assert(!staffEmail(raw).ok, raw);
  }
  assert(!staffEmail(`${"a".repeat(65)}@example.org`).ok);
  assert(!staffEmail(`a@${"b".repeat(250)}.org`).ok);
});

Deno.test("skeleton: Unicode's own example, and strings that only look alike", () => {
  assert.equal(TABLE.prototypes.size, 6565);
  assert.equal(skeleton("\u{1D52D}\u{1D4B6}\u1EFF\u{1D561}\u{1D552}\u2113", TABLE), skeleton("paypal", TABLE));
  assert.equal(skeleton("rn", TABLE), skeleton("m", TABLE));
  assert.equal(skeleton("a\u0301", TABLE), skeleton("\u00e1", TABLE));
  assert.notEqual(skeleton("admin", TABLE), skeleton("admim", TABLE));
});

Deno.test("skeleton: a damaged table is an error, not a weaker check", () => {
  assert.throws(() => parseConfusables("0430 ;\t0061\n"), /unreadable line/);
  assert.throws(() => parseConfusables("# only comments\n"), /empty/);
});

Deno.test("names: blank is none; control and bidi characters are refused by position; joiners that scripts need are kept", () => {
  assert.deepEqual(personName("  Ada ", "firstName"), { ok: true, value: "Ada" });
  assert.deepEqual(personName("   ", "lastName"), { ok: true, value: null });
  assert.deepEqual(personName(null, "lastName"), { ok: true, value: null });
  assert.deepEqual(personName("Zoë", "firstName"), { ok: true, value: "Zoë" });
  assert.deepEqual(personName("\u0645\u062d\u200c\u0645\u062f", "firstName"), { ok: true, value: "\u0645\u062d\u200c\u0645\u062f" });
  assert.deepEqual(personName("Ada\u202eecalevol", "firstName"), {
    ok: false,
    error: {
      code: "invalid_name",
      message: "character U+202E (right-to-left override) at position 4 is not allowed",
      field: "firstName",
    },
  });
  assert.equal(
    (personName("Ada\u0000", "lastName") as { error: { message: string } }).error.message,
    "character U+0000 (null) at position 4 is not allowed",
  );
  assert(!personName("Ada\u2066x", "lastName").ok);
  assert(!personName("Ada\u200bLovelace", "lastName").ok);
  assert(!personName("Ada\nLovelace", "lastName").ok);
});
