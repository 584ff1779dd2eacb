import assert from "node:assert/strict";
import {
  connectionTestToast,
  GENERIC_FAILURE,
  operatorFailureSentence,
} from "../../src/domain/connection_test_outcome.ts";

Deno.test("operatorFailureSentence() speaks about the partner, not hosts and settings", () => {
  const cases: [string, string][] = [
    ["No response from 127.0.0.1:4000 within 5000 ms", "The partner did not answer within 5 s."],
    ["Connection refused by 127.0.0.1:4000", "The partner's system refused the connection."],
    ["Host bank.example could not be resolved", "The partner's address could not be found."],
    [
      "This server process has no network permission for api.loc.example: set CONNECTION_TEST_ANY_HOST=1 (tests may reach any public host) or list the host in CONNECTION_TEST_ALLOWED_HOSTS, then restart the server",
      "This console is not allowed to reach the partner. An administrator must allow it.",
    ],
    ["Endpoint answered HTTP 503 Service Unavailable", "The partner's system reported an error (HTTP 503)."],
    [
      "Endpoint answered HTTP 404 Not Found: the configured path does not exist",
      "The partner's address is configured with a path that does not exist (HTTP 404).",
    ],
    [
      "TLS verification failed for bank.example: UnknownIssuer",
      "The partner's security certificate could not be verified.",
    ],
    ["No API endpoint is configured for this connection", "This connection has no partner address to test."],
    ["Something unforeseen", GENERIC_FAILURE],
  ];
  for (const [message, sentence] of cases) assert.equal(operatorFailureSentence(message), sentence, message);
});

Deno.test("connectionTestToast(): latency only for a success; a failure keeps the detail for administrators", () => {
  assert.deepEqual(
    connectionTestToast({ success: true, message: "Endpoint reachable: HTTP 200 OK", latency: 12 }),
    {
      title: "Connection Successful",
      description: "Endpoint reachable: HTTP 200 OK (latency 12 ms)",
    },
  );
  const failed = connectionTestToast({
    success: false,
    message: "No response from h:1 within 5000 ms",
    latency: 5003,
  });
  assert.equal(failed.title, "Connection Failed");
  assert.equal(
    failed.description,
    "The partner did not answer within 5 s. Detail for administrators: No response from h:1 within 5000 ms",
  );
  assert.doesNotMatch(failed.description, /latency|5003/);
});
