import assert from "node:assert/strict";
import {
  defaultCredentialsConfig,
  isNonSecretCredentialField,
  MASK,
  maskCredentials,
  NON_SECRET_CREDENTIAL_FIELDS,
} from "../../src/domain/connection_credentials.ts";

Deno.test("only the listed non-secret fields are shown; names are compared without case or separators", () => {
  for (const name of ["authenticationType", "key_id", "KID", "client-id", "tokenUrl", "algorithm", "scopes"]) {
    assert(isNonSecretCredentialField(name), name);
  }
  for (const name of ["hmac", "auth", "pass", "cvv", "note", "apiKey", "clientSecret", "secretId", "keys", ""]) {
    assert(!isNonSecretCredentialField(name), name);
  }
  assert(NON_SECRET_CREDENTIAL_FIELDS.length <= 30, "the list stays short");
});

Deno.test("maskCredentials() masks every value under an unlisted name, whatever the name (issue 22)", () => {
  const masked = maskCredentials({
    authenticationType: "api_key",
    hmac: "9f86d081884c7d659a2feaa0c55ad015",
    auth: "Basic dXNlcjpwYXNz",
    pass: "hunter2",
    cvv: 123,
    note: "card 4111 1111 1111 1111 exp 12/29",
    enabled: true,
    emptyValue: "",
    nothing: null,
  });
  assert.deepEqual(masked, {
    authenticationType: "api_key",
    hmac: `${MASK}15`,
    auth: `${MASK}Nz`,
    pass: MASK,
    cvv: MASK,
    note: `${MASK}29`,
    enabled: MASK,
    emptyValue: "",
    nothing: null,
  });
});

Deno.test("maskCredentials() walks objects and arrays: listed fields stay visible at any depth, card numbers never", () => {
  const masked = maskCredentials({
    oauth: { tokenUrl: "https://idp.example/token", scopes: ["payments", "status"], clientSecret: "0123456789abcdef" },
    keys: [{ kid: "k1", alg: "ES256", d: "private-part-of-the-key" }],
    refreshTokens: ["r1-aaaaaaaaaaaa", "r2"],
    clientId: "4111111111111111",
    retries: 3,
  });
  assert.deepEqual(masked, {
    oauth: { tokenUrl: "https://idp.example/token", scopes: ["payments", "status"], clientSecret: `${MASK}ef` },
    keys: [{ kid: "k1", alg: "ES256", d: `${MASK}ey` }],
    refreshTokens: [`${MASK}aa`, MASK],
    clientId: "411111******1111",
    retries: MASK,
  });
  assert.equal(maskCredentials("a bare string secret"), `${MASK}et`);
});

Deno.test("defaultCredentialsConfig() is built from connection type, message standard and authentication method", () => {
  assert.deepEqual(
    defaultCredentialsConfig({
      connectionType: "bilateral",
      messageStandard: "fedwire",
      authenticationMethod: "mutual_tls",
    }),
    { authenticationType: "mutual_tls", connectionType: "bilateral", messageStandard: "fedwire" },
  );
});
