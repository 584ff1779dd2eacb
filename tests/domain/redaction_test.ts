import assert from "node:assert/strict";
import {
  isSensitiveName,
  loggedPayload,
  loggedPayloadFromText,
  loggedPayloadJson,
  maskCardNumbersInRecord,
  maskCardNumbersOutsideIdentifiers,
  MAX_LOGGED_PAYLOAD_CHARS,
  MAX_REDACTION_DEPTH,
  MAX_REMEMBERED_NAMES,
  mayNeedRedaction,
  REDACTED,
  redactedJsonPrefix,
  redactText,
  redactValue,
} from "../../src/domain/redaction.ts";
import { isValidLuhn, maskCardNumber, maskCardNumbersInText } from "../../src/domain/card.ts";

const CARD = "4532015112830366";

Deno.test("isSensitiveName() recognises secrets whatever the spelling, and leaves ordinary fields alone", () => {
  for (
    const name of [
      "password",
      "newPassword",
      "PASSWORD_CONFIRM",
      "secret",
      "clientSecret",
      "token",
      "accessToken",
      "Authorization",
      "apiKey",
      "api_key",
      "key",
      "credentials",
      "credentialsConfig",
      "cardNumber",
      "card_number",
      "pan",
      "cvv",
      "pin",
      "cookie",
      "sessionId",
      "recipientCard",
      "privateKey",
      "accountNumber",
      "account_number",
      "pwd",
      "passcode",
      "pinCode",
      "new_pin_code",
      "cardPin",
      "securityCode",
      "otpCode",
    ]
  ) {
    assert(isSensitiveName(name), name);
  }
  for (
    const name of [
      "name",
      "keyPrefix",
      "iban",
      "cardholderName",
      "cardType",
      "email",
      "status",
      "monkey",
      "shipping",
      "mapping",
      "pinned",
    ]
  ) {
    assert(!isSensitiveName(name), name);
  }
});

Deno.test("redactValue() replaces secret-named values at any depth and masks card numbers in strings and numbers", () => {
  const input = {
    email: "ops@bank.test",
    password: "hunter22",
    nested: { credentials: { user: "u", pass: "p" }, list: [{ token: "t" }, `card ${CARD}`] },
    cardNumber: "4111 1111 1111 1111",
    amount: 4532015112830366,
    count: 12,
    empty: null,
    apiKey: null,
  };
  assert.deepEqual(redactValue(input), {
    email: "ops@bank.test",
    password: REDACTED,
    nested: { credentials: REDACTED, list: [{ token: REDACTED }, "card 453201******0366"] },
    cardNumber: REDACTED,
    amount: "453201******0366",
    count: 12,
    empty: null,
    apiKey: null,
  });
  assert.equal(input.password, "hunter22", "the input is not changed");
});

Deno.test("redactValue() masks a JSON number of card length past 2^53, whose parsed digits no longer pass Luhn", () => {
  // A 16-digit card of the national range, Luhn-valid as sent; parsed, it ends in 2 and fails Luhn.
  const sent = "9900017654321013";
  assert.ok(isValidLuhn(sent));
  const parsed = JSON.parse(`{"n":${sent}}`);
  assert.equal(String(parsed.n), "9900017654321012");
  assert.deepEqual(redactValue(parsed), { n: maskCardNumber(String(parsed.n)) });
  assert.equal(loggedPayloadJson(`{"n":${sent}}`), JSON.stringify({ n: maskCardNumber(String(parsed.n)) }));
  // Safe integers and longer numbers are judged by Luhn as before.
  assert.deepEqual(redactValue({ n: 4532015112830367, m: 12345678901234567890 }), {
    n: 4532015112830367,
    m: 12345678901234567000,
  });
});

Deno.test("redactValue() stops walking at MAX_REDACTION_DEPTH instead of recursing without end", () => {
  let deep: unknown = { password: "x" };
  for (let i = 0; i < MAX_REDACTION_DEPTH + 5; i++) deep = { inner: deep };
  assert(!JSON.stringify(redactValue(deep)).includes('"x"'));
});

Deno.test("loggedPayload() keeps a small payload whole and cuts a long one to a preview without a half card number", () => {
  assert.deepEqual(loggedPayload({ iban: "DE89370400440532013000" }), { iban: "DE89370400440532013000" });
  const padding = "a".repeat(MAX_LOGGED_PAYLOAD_CHARS - 20);
  const long = loggedPayload({ memo: `${padding}${CARD}${CARD}` }) as {
    truncated: boolean;
    originalLength: number;
    preview: string;
  };
  assert.equal(long.truncated, true);
  assert(long.preview.length <= MAX_LOGGED_PAYLOAD_CHARS);
  assert(long.originalLength > MAX_LOGGED_PAYLOAD_CHARS);
  assert(!/\d{7,}$/.test(long.preview), "no run of digits is left at the cut");
  assert.equal(loggedPayload(undefined), null);
});

Deno.test("loggedPayloadFromText() parses JSON to redact it by name, and redacts other text as text", () => {
  assert.deepEqual(loggedPayloadFromText('{"password":"p","iban":"X"}'), { password: REDACTED, iban: "X" });
  assert.equal(loggedPayloadFromText(""), null);
  assert.equal(loggedPayloadFromText(`not json, card ${CARD}`), "not json, card 453201******0366");
  const huge = `{"password":"secret-value","filler":"${"b".repeat(300_000)}"}`;
  const preview = loggedPayloadFromText(huge) as { truncated: boolean; preview: string };
  assert.equal(preview.truncated, true);
  assert(!preview.preview.includes("secret-value"), "too long to parse, still redacted by name");
});

Deno.test("redactText() redacts JSON-like and form-like pairs and masks card numbers", () => {
  assert.equal(redactText('"token": "abc", "name": "x"'), `"token": "${REDACTED}", "name": "x"`);
  assert.equal(redactText("email=a%40b.test&password=hunter22"), `email=a%40b.test&password=${REDACTED}`);
  assert.equal(redactText(`"password": "cut off here`), `"password": "${REDACTED}"`);
  assert.equal(redactText(`pan ${CARD}`), "pan 453201******0366");
});

Deno.test("redactText() redacts numbers, literals and flat arrays under secret names, as in malformed JSON", () => {
  assert.equal(
    redactText('{"pin": 1234, "otp":true, "cvv": [1, 2, 3], "amount": 12, "apiKey": -4.5e3}'),
    `{"pin": "${REDACTED}", "otp":"${REDACTED}", "cvv": "${REDACTED}", "amount": 12, "apiKey": "${REDACTED}"}`,
  );
  // Not JSON (a trailing comma): redacted as text, the PIN included.
  assert.equal(loggedPayloadFromText('{"pin": 1234,}'), `{"pin": "${REDACTED}",}`);
});

Deno.test("mayNeedRedaction() clears only text with no card-like digits and no fragment of a secret name", () => {
  const lookup = JSON.stringify({
    data: {
      // Fixed: about 1 random UUID in 100 holds 13 digits in a row across its dashes, which is
      // card-like and rightly not cleared.
      id: "0b7e3f9a-5c2d-4e8f-a1b6-9d4c3e2f1a0b",
      code: "ABC00012345",
      status: "active",
      createdAt: "2026-01-15T09:30:00.000Z",
    },
    success: true,
    timestamp: "2026-01-15T09:30:00.000Z",
  });
  assert.equal(mayNeedRedaction(lookup), false);
  for (
    const text of [
      '{"to_ken":"x"}',
      '{"n":"4532 0151 1283 0366"}',
      `{"n":${CARD}}`,
      '{"\\u0070assword":"x"}',
      '{"apiKey":1}',
      '{"accountNumber":"LA-0001"}',
      '{"a":"x",":password":1}',
      '{"a" : "b", "token" \n : "c"}',
      '["k", {"pin": 1}]',
      '{"pass\\nword":"x"}',
      // 4222222222222, a card number, written with an exponent.
      '{"n":4.222222222222e12}',
      "[1, 42222222222.22E+2]",
      " 4.222222222222e12",
    ]
  ) {
    assert.equal(mayNeedRedaction(text), true, text);
  }
});

Deno.test("mayNeedRedaction() never clears a payload whose field isSensitiveName() would redact", () => {
  const names = [
    "key",
    "pan",
    "pin",
    "cvv",
    "cvc",
    "cvv2",
    "otp",
    "sid",
    "cookie",
    "Set-Cookie",
    "recipientCard",
    "accountNumber",
    "password",
    "passwd",
    "passphrase",
    "clientSecret",
    "refresh_token",
    "Authorization",
    "api-key",
    "privateKey",
    "accessKey",
    "credentials",
    "cardNumber",
    "sessionId",
    "pwd",
    "passcode",
    "pinCode",
    "cardPin",
    "securityCode",
    "otpCode",
  ];
  for (const name of names) {
    assert.equal(isSensitiveName(name), true, name);
    assert.equal(mayNeedRedaction(JSON.stringify({ [name]: "short" })), true, name);
  }
});

Deno.test("loggedPayloadJson() stores clean JSON as sent and anything else redacted, always as valid JSON", () => {
  const clean = '{"data":{"code":"ABC00012345"},"success":true}';
  assert.equal(loggedPayloadJson(clean), clean);
  assert.equal(loggedPayloadJson('{"password":"p"}'), `{"password":"${REDACTED}"}`);
  assert.equal(loggedPayloadJson("plain words"), '"plain words"');
  assert.equal(loggedPayloadJson(""), null);
  for (const text of [clean, '{"token":1}', "x".repeat(10_000), `{"a":"${CARD}"}`, "not json {"]) {
    JSON.parse(loggedPayloadJson(text)!);
  }
});

Deno.test("isSensitiveName() judges names alike before and after it stops remembering verdicts", () => {
  for (let i = 0; i < MAX_REMEMBERED_NAMES + 10; i++) assert.equal(isSensitiveName(`field_${i}`), false);
  for (const name of ["api_key", "Password", "x-session-id", "cardNumber", "secretValue"]) {
    assert.equal(isSensitiveName(name), true, name);
    assert.equal(isSensitiveName(name), true, `${name}, asked again`);
  }
  assert.equal(isSensitiveName("countryCode"), false);
});

Deno.test("loggedPayloadFromText() redacts text that is not JSON, however clean its quotes look", () => {
  assert.equal(
    loggedPayloadFromText("email=a%40b.test&password=hunter22"),
    `email=a%40b.test&password=${REDACTED}`,
  );
  assert.equal(loggedPayloadFromText("plain words"), "plain words");
  assert.equal(loggedPayloadJson("token=abc"), JSON.stringify(`token=${REDACTED}`));
});

Deno.test("maskCardNumbersInRecord() masks card numbers in strings and numbers and keeps generated identifiers", () => {
  const sha = "ab41111111111111111c".padEnd(64, "0");
  const record = {
    note: "paid with 4111 1111 1111 1111",
    pan: 4111111111111111,
    nested: [{ text: "card:5500005555555559." }],
    reportSha256: sha,
    id: "41111111-1111-4111-8111-111111111111",
    amount: "1250.00",
    password: "kept: names are not this function's business",
  };
  assert.deepEqual(maskCardNumbersInRecord(record), {
    note: "paid with 4111 11** **** 1111",
    pan: "411111******1111",
    nested: [{ text: "card:550000******5559." }],
    reportSha256: sha,
    id: "41111111-1111-4111-8111-111111111111",
    amount: "1250.00",
    password: "kept: names are not this function's business",
  });
  assert.equal(maskCardNumbersOutsideIdentifiers(`${sha} 4111111111111111`), `${sha} 411111******1111`);
  assert.equal(
    maskCardNumbersOutsideIdentifiers("4111111111111111".repeat(2)),
    maskCardNumbersInText("4111111111111111".repeat(2)),
    "32 digits without a hex letter are no identifier",
  );
});

Deno.test("a flag under a secret's name is kept: one bit such as mustChangePassword carries no secret", () => {
  const answer = JSON.stringify({ user: { email: "a@b.test", mustChangePassword: true, passwordSetAt: null } });
  assert.equal(mayNeedRedaction(answer), false);
  assert.equal(loggedPayloadJson(answer), answer);
  assert.deepEqual(redactValue({ mustChangePassword: false, otp: true, password: "hunter2hunter2" }), {
    mustChangePassword: false,
    otp: true,
    password: REDACTED,
  });
  // The value beside a flag is still judged: a secret after a sensitive flag is redacted.
  const mixed = '{"tokenRevoked":false,"token":"abc123"}';
  assert.equal(mayNeedRedaction(mixed), true);
  assert.equal(loggedPayloadJson(mixed), `{"tokenRevoked":false,"token":"${REDACTED}"}`);
  // A string that merely reads "true" is a value like any other.
  assert.equal(loggedPayloadJson('{"pin":"true"}'), `{"pin":"${REDACTED}"}`);
});

Deno.test("redactedJsonPrefix() is JSON.stringify(redactValue()) whole when it fits, and its beginning when not", () => {
  let nested: unknown = { end: "4532015112830366" };
  for (let level = 0; level < MAX_REDACTION_DEPTH + 3; level++) nested = { level, nested };
  const values: unknown[] = [
    null,
    true,
    4532015112830366,
    "card 4532015112830366 here",
    [],
    {},
    [1, "two", null, false, [3, { password: "hunter2hunter2" }]],
    { user: { email: "a@b.test", mustChangePassword: true, apiKey: "cbr_live_x", token: null } },
    { data: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `Bank "${i}" \\ é`, pin: String(i) })) },
    { credentials: { user: "x", pass: "y" }, list: [{ secret: [1, 2] }], n: -0.5e-3 },
    nested,
  ];
  for (const value of values) {
    const whole = JSON.stringify(redactValue(value));
    for (const limit of [0, 1, 7, 50, 333, 4096, whole.length - 1, whole.length, whole.length + 10]) {
      if (limit < 0) continue;
      const prefix = redactedJsonPrefix(value, limit);
      if (whole.length <= limit) {
        assert.equal(prefix.complete, true, `${whole.slice(0, 40)} at ${limit}`);
        assert.equal(prefix.json, whole);
      } else {
        assert.equal(prefix.complete, false, `${whole.slice(0, 40)} at ${limit}`);
        assert.ok(prefix.json.length > limit);
        assert.ok(whole.startsWith(prefix.json), `${whole.slice(0, 40)} at ${limit}`);
      }
    }
  }
});

Deno.test("a long JSON answer is logged as the preview of its redaction, with its length as sent", () => {
  const answer = JSON.stringify({
    data: Array.from({ length: 200 }, (_, i) => ({ id: i, accountNumber: `ACC-${i}`, card: "4532015112830366" })),
  });
  const logged = JSON.parse(loggedPayloadJson(answer)!);
  assert.equal(logged.truncated, true);
  assert.equal(logged.originalLength, answer.length);
  assert.equal(logged.preview.length <= MAX_LOGGED_PAYLOAD_CHARS, true);
  assert.ok(JSON.stringify(redactValue(JSON.parse(answer))).startsWith(logged.preview));
  assert.ok(!logged.preview.includes("ACC-") && !logged.preview.includes("4532015112830366"));
});
