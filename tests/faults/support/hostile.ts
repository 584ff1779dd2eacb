/**
 * Property generators of hostile input: wrong types, huge strings, deep nesting, invalid UTF-8,
 * SQL and script fragments, out-of-range numbers, NaN/Infinity spelled as strings, arrays where
 * objects belong. Field names come from the spec, so generated objects reach the validators.
 */
import fc from "fast-check";
import { MAX_BODY_BYTES } from "../../../src/server/http/security.ts";

export const SPEC_FIELDS = [
  "name",
  "type",
  "registrationNumber",
  "licenseNumber",
  "address",
  "phoneNumber",
  "emailAddress",
  "numberOfBranches",
  "swiftParticipant",
  "swiftMembershipType",
  "status",
  "institutionId",
  "prefix",
  "branchCode",
  "description",
  "bicCode",
  "membershipType",
  "validFrom",
  "validUntil",
  "countryCode",
  "ibanLength",
  "bankCodeLength",
  "accountNumberLength",
  "structure",
  "checkDigitAlgorithm",
  "exampleIban",
  "iban",
  "centralBankCode",
  "institutionType",
  "registryNumber",
  "institutionName",
  "nationalBankCode",
  "accountNumberFormat",
  "ibanPrefix",
  "swiftBicCode",
  "connectionProtocol",
  "settlementAccount",
  "connectionDetails",
  "partnerCentralBank",
  "connectionType",
  "partnerBankCode",
  "partnerSwiftCode",
  "messageStandard",
  "settlementCurrency",
  "dailySettlementLimit",
  "apiEndpoint",
  "authenticationMethod",
  "credentialsConfig",
  "accountNumber",
  "accountType",
  "accountName",
  "currency",
  "currentBalance",
  "sweepThreshold",
  "targetLiquidAccount",
  "sourceAccountId",
  "targetAccountId",
  "sweepAmount",
  "sweepType",
  "sweepReason",
  "routingNumber",
  "accountId",
  "recipientCard",
  "amount",
  "cardNumber",
  "merchantInfo",
  "cardholderName",
  "cardType",
  "cardBrand",
  "spendingLimit",
  "dailyLimit",
  "initialBalance",
  "recipientInfo",
  "email",
  "distributionMethod",
  "loadAmount",
  "fundingSource",
  "expiresAt",
  "reportType",
  "format",
  "from",
  "to",
  "password",
  "query",
  "id",
  "__proto__",
  "constructor",
];

export const QUERY_KEYS = [
  "search",
  "limit",
  "offset",
  "type",
  "query",
  "status",
  "page",
  "from",
  "to",
  "format",
  "endpoint",
  "q",
  "sort",
];

const FRAGMENTS = [
  "' OR 1=1 --",
  "'; DROP TABLE institutions; --",
  '" OR ""="',
  "1; SELECT * FROM users",
  "%' AND 1=1 AND '%'='",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  "{{7*7}}",
  "${7*7}",
  "../../etc/passwd",
  "\u0000",
  "\uD800",
  "\uFFFF",
  "‮",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "-1e309",
  "-0",
  "0x10",
  "99999999999999999999",
  "12.345",
  "-12.34",
  "1,000.00",
  " 1 ",
  "",
  " ",
  "null",
  "true",
  "[object Object]",
  "ABC",
  "GB82WEST12345698765432",
  "DEUTDEFF",
  "2024-02-30",
  "9999-12-31T25:61:61Z",
];

const OUT_OF_RANGE = [
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  -1,
  0,
  -0,
  1e21,
  -1e308,
  1e308,
  0.001,
  1.005,
  Number.MIN_VALUE,
];

const huge = fc.constantFrom(300, 5_000, 70_000).map((n) => "A".repeat(n));

export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) },
  { weight: 2, arbitrary: fc.constantFrom(...OUT_OF_RANGE) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40, unit: "binary" }) },
  { weight: 1, arbitrary: huge },
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...SPEC_FIELDS), hostileScalar, { maxKeys: 3 }) },
);

/** A request body: JSON text (well-formed or not) or raw bytes, and its content type. */
export interface HostileBody {
  kind: string;
  /** Structurally not a JSON object: every route that rejects `{}` must reject it with 4xx. */
  malformed: boolean;
  contentType: string | null;
  body: string | Uint8Array<ArrayBuffer>;
}

const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);

export const hostileBody: fc.Arbitrary<HostileBody> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.dictionary(fc.constantFrom(...SPEC_FIELDS), hostileValue, { minKeys: 1, maxKeys: 8 })
      .map((o) => ({
        kind: "object",
        malformed: false,
        contentType: "application/json",
        body: JSON.stringify(o),
      })),
  },
  {
    weight: 2,
    arbitrary: fc.oneof(fc.array(hostileValue, { maxLength: 5 }), hostileScalar)
      .map((v) => ({
        kind: "non-object JSON",
        malformed: true,
        contentType: "application/json",
        body: JSON.stringify(v) ?? "null",
      })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "{",
      '{"name":',
      "{'name': 'x'}",
      '{"a":1,}',
      "NaN",
      "Infinity",
      '{"amount": 1e400}',
      "\u0000",
      "[",
      "{}}",
      '{"amount": NaN}',
      '{"__proto__": {"admin": true}}',
    ).map((body) => ({
      kind: "broken JSON",
      malformed: body !== '{"__proto__": {"admin": true}}' && body !== '{"amount": 1e400}',
      contentType: "application/json",
      body,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
      new Uint8Array([0xff, 0xfe, 0xfd]),
      new Uint8Array([0xed, 0xa0, 0x80]),
      new Uint8Array([0xc0, 0xaf]),
    ).map((body) => ({ kind: "invalid UTF-8", malformed: true, contentType: "application/json", body })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(10_000, 100_000).chain((depth) =>
      fc.constantFrom(
        {
          kind: `nested arrays ${depth}`,
          malformed: true,
          contentType: "application/json",
          body: nested(depth, "[", "]"),
        },
        {
          kind: `nested objects ${depth}`,
          malformed: false,
          contentType: "application/json",
          body: '{"name":'.repeat(depth) + "1" + "}".repeat(depth),
        },
      )
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(MAX_BODY_BYTES - 64, MAX_BODY_BYTES + 64).map((size) => ({
      kind: `body of ${size} bytes`,
      malformed: false,
      contentType: "application/json",
      body: JSON.stringify({ name: "x".repeat(size - 12) }),
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constant({
      kind: "no content type",
      malformed: false,
      contentType: null,
      body: '{"name":"x"}',
    }),
  },
);

/** A path segment as it appears on the wire: percent-encoded, or raw bytes that are not valid encoding. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: hostileScalar.map((v) =>
      encodeURIComponent(String(v).replace(/[\uD800-\uDFFF]/g, "?")) || "%20"
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "%ff%fe",
      "%",
      "%E0%A4%A",
      "..%2f..%2fetc%2fpasswd",
      "%00",
      "a%2fb",
      "-1",
      "1e999",
      "NaN",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(5_000, 60_000).map((n) => "9".repeat(n)) },
);

export const hostileQuery: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.dictionary(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 8 })),
      hostileScalar,
      { maxKeys: 4 },
    )
      .map((q) =>
        Object.entries(q).map(([k, v]) =>
          `${encodeURIComponent(k)}=${encodeURIComponent(String(v).replace(/[\uD800-\uDFFF]/g, "?"))}`
        ).join("&")
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "search=%ff%fe",
      "limit=%",
      "search=%E0%A4%A",
      "limit=1&limit=2&limit=x",
      "offset[]=1",
      "search[a]=b",
      "=",
    ),
  },
);
