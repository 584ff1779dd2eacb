import assert from "node:assert/strict";
import {
  defaultCredentialsConfig,
  isSecretKey,
  MASK,
  maskCredentials,
} from "../../src/domain/connection_credentials.ts";

Deno.test("isSecretKey() recognises secret-looking key names and leaves descriptive ones", () => {
  for (
    const key of [
      "apiKey",
      "client_secret",
      "password",
      "accessToken",
      "privateKey",
      "clientCertificate",
      "pin",
    ]
  ) {
    assert(isSecretKey(key), key);
  }
  for (
    const key of [
      "type",
      "authenticationType",
      "institutionIdentifier",
      "documentationUrl",
      "operationalStatus",
    ]
  ) {
    assert(!isSecretKey(key), key);
  }
});

Deno.test("maskCredentials() masks secret values at any depth, keeps the last 2 characters of long ones only", () => {
  const masked = maskCredentials({
    type: "oauth2",
    clientSecret: "0123456789abcdef",
    password: "short",
    emptyToken: "",
    oauth: { tokenUrl: "https://idp.example/token", scopes: ["payments"] },
    keys: [{ kid: "k1" }],
    retries: 3,
  });
  assert.deepEqual(masked, {
    type: "oauth2",
    clientSecret: `${MASK}ef`,
    password: MASK,
    emptyToken: "",
    oauth: { tokenUrl: `${MASK}en`, scopes: ["payments"] },
    keys: [{ kid: MASK }],
    retries: 3,
  });
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
