/**
 * The SSRF guard's IPv6 forms of IPv4 addresses and the probe's single message for refused, closed
 * and unreachable hosts outside the allow-list. No test here opens a socket to anything but
 * loopback: Deno.connect is replaced for each test by one that maps a stand-in public address onto
 * a local port and refuses every other non-loopback target.
 */
import assert from "node:assert/strict";
import {
  embeddedIpv4Addresses,
  noHttpAnswerMessage,
  refusedAddressReason,
} from "../../src/server/http/outbound.ts";
import { probeEndpoint } from "../../src/server/features/central_bank_connections/probe.ts";

/** A public address that the tests pretend to reach; the stub sends it to a local port instead. */
const STAND_IN = "11.22.33.44";
const NO_ALLOW_LIST: ReadonlySet<string> = new Set();

type Connect = typeof Deno.connect;

/**
 * Runs `fn` with Deno.connect replaced: STAND_IN goes to 127.0.0.1:`localPort` (or `onStandIn`
 * decides), loopback goes through, anything else is recorded and refused without a packet sent.
 */
async function withConnectStub(
  route: { localPort?: number; onStandIn?: () => Promise<Deno.TcpConn> },
  fn: (outside: string[]) => Promise<void>,
) {
  const real = Deno.connect;
  const outside: string[] = [];
  const stub = ((options: Deno.ConnectOptions) => {
    if (options.hostname === STAND_IN) {
      if (route.onStandIn) return route.onStandIn();
      return real({ ...options, hostname: "127.0.0.1", port: route.localPort! });
    }
    if (options.hostname === "127.0.0.1" || options.hostname === "localhost") return real(options);
    outside.push(`${options.hostname}:${options.port}`);
    return Promise.reject(new Error(`the test stub refuses to connect to ${options.hostname}`));
  }) as Connect;
  (Deno as { connect: Connect }).connect = stub;
  try {
    await fn(outside);
  } finally {
    (Deno as { connect: Connect }).connect = real;
  }
}

function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A local TCP service that does `serve` with each connection. */
function tcpService(serve: (conn: Deno.Conn) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open: Deno.Conn[] = [];
  const loop = (async () => {
    for await (const conn of listener) {
      open.push(conn);
      serve(conn).catch(() => {}).finally(() => {
        try {
          conn.close();
        } catch {
          // Closed by serve().
        }
      });
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    async close() {
      listener.close();
      for (const conn of open) {
        try {
          conn.close();
        } catch {
          // Already closed.
        }
      }
      await loop;
    },
  };
}

Deno.test("IPv6 forms that embed a refused IPv4 address are refused: NAT64, SIIT, 6to4, Teredo (client inverted), IPv4-compatible", () => {
  const refused: [string, RegExp][] = [
    ["64:ff9b::7f00:1", /^loopback \(NAT64 64:ff9b::\/96 form of 127\.0\.0\.1\)$/],
    ["64:ff9b::127.0.0.1", /^loopback \(NAT64 64:ff9b::\/96 form of 127\.0\.0\.1\)$/],
    ["0064:FF9B:0000:0000:0000:0000:7F00:0001", /^loopback \(NAT64/],
    ["64:ff9b::a9fe:a9fe", /^link-local \(NAT64 64:ff9b::\/96 form of 169\.254\.169\.254\)$/],
    ["64:ff9b:1::a00:1", /^local-use NAT64$/],
    ["::ffff:0:7f00:1", /^loopback \(SIIT ::ffff:0:0:0\/96 form of 127\.0\.0\.1\)$/],
    ["::ffff:0:10.1.2.3", /^private \(SIIT ::ffff:0:0:0\/96 form of 10\.1\.2\.3\)$/],
    ["::ffff:7f00:1", /^loopback$/],
    ["2002:7f00:1::", /^loopback \(6to4 2002::\/16 form of 127\.0\.0\.1\)$/],
    ["2002:c0a8:101::1", /^private \(6to4 2002::\/16 form of 192\.168\.1\.1\)$/],
    // Teredo: server 65.54.227.120 (public), client 127.0.0.1 stored inverted as 80ff:fffe.
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", /^loopback \(Teredo 2001::\/32 client form of 127\.0\.0\.1\)$/],
    ["2001:0:a00:1:8000:63bf:f7f7:f7f7", /^private \(Teredo 2001::\/32 server form of 10\.0\.0\.1\)$/],
    ["::7f00:1", /^IPv4-compatible$/],
    ["::10.0.0.1", /^IPv4-compatible$/],
  ];
  for (const [address, reason] of refused) {
    assert.match(refusedAddressReason(address) ?? "public", reason, address);
  }
  // The same forms of public addresses are public.
  for (
    const address of [
      "64:ff9b::808:808",
      "::ffff:0:808:808",
      "2002:808:808::1",
      "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
      "2606:4700::1111",
    ]
  ) {
    assert.equal(refusedAddressReason(address), null, address);
  }
  assert.deepEqual(embeddedIpv4Addresses("2001:0:4136:e378:8000:63bf:f7f7:f7f7"), [
    { form: "Teredo 2001::/32 client", ipv4: "8.8.8.8" },
    { form: "Teredo 2001::/32 server", ipv4: "65.54.227.120" },
  ]);
  assert.deepEqual(embeddedIpv4Addresses("2606:4700::1111"), []);
});

Deno.test("the probe refuses the IPv6 forms of internal addresses without connecting", async () => {
  await withConnectStub({}, async (outside) => {
    for (
      const host of [
        "[64:ff9b::7f00:1]",
        "[::ffff:0:7f00:1]",
        "[2002:7f00:1::]",
        "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
        "[64:ff9b::a9fe:a9fe]",
      ]
    ) {
      const result = await probeEndpoint(`http://${host}:8080/`, { allowedHosts: NO_ALLOW_LIST });
      assert.equal(result.success, false, host);
      assert.match(
        result.message,
        /^Refused: \S+ is a (loopback|link-local) \((NAT64|SIIT|6to4|Teredo)/,
        host,
      );
      assert.match(result.message, /CONNECTION_TEST_ALLOWED_HOSTS/, host);
    }
    assert.deepEqual(outside, [], "no connection was attempted");
  });
});

Deno.test("outside the allow-list, refused, reset, closed, non-HTTP and unreachable all answer one message", async () => {
  const silentClose = tcpService(async () => {});
  const notHttp = tcpService(async (conn) => {
    await conn.write(new TextEncoder().encode("SSH-2.0-OpenSSH_9.6\r\n"));
  });
  const halfHttp = tcpService(async (conn) => {
    await conn.read(new Uint8Array(1024));
    await conn.write(new TextEncoder().encode("HTTP/1.1 200 OK\r\nContent-"));
  });
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => new Response("ok"));
  const expected = noHttpAnswerMessage(`${STAND_IN}:8443`);
  const endpoint = `http://${STAND_IN}:8443/status`;
  try {
    const cases: [string, { localPort?: number; onStandIn?: () => Promise<Deno.TcpConn> }][] = [
      ["closed port (refused)", { localPort: closedPort() }],
      ["accepts, then closes", { localPort: silentClose.port }],
      ["speaks another protocol", { localPort: notHttp.port }],
      ["incomplete HTTP", { localPort: halfHttp.port }],
      [
        "host unreachable",
        {
          onStandIn: () =>
            Promise.reject(new Deno.errors.NetworkUnreachable("Network is unreachable (os error 101)")),
        },
      ],
      [
        "no route to host",
        { onStandIn: () => Promise.reject(new Error("No route to host (os error 113)")) },
      ],
      ["reset", {
        onStandIn: () => Promise.reject(new Deno.errors.ConnectionReset("Connection reset by peer")),
      }],
    ];
    const messages = new Set<string>();
    for (const [name, route] of cases) {
      await withConnectStub(route, async (outside) => {
        const result = await probeEndpoint(endpoint, { allowedHosts: NO_ALLOW_LIST });
        assert.equal(result.success, false, name);
        assert.equal(result.message, expected, name);
        assert.equal(result.statusCode, null, name);
        assert.deepEqual(outside, [], name);
        messages.add(result.message);
      });
    }
    assert.equal(messages.size, 1);

    // A real HTTP answer from the same stand-in is still reported as such.
    await withConnectStub({ localPort: http.addr.port }, async () => {
      const result = await probeEndpoint(endpoint, { allowedHosts: NO_ALLOW_LIST });
      assert.equal(result.success, true);
      assert.equal(result.message, "Endpoint reachable (plain HTTP, not encrypted): HTTP 200 OK");
    });
  } finally {
    await silentClose.close();
    await notHttp.close();
    await halfHttp.close();
    await http.shutdown();
  }
});

Deno.test("an allow-listed host keeps the precise reason: refused, closed without answering, not HTTP", async () => {
  const port = closedPort();
  const silentClose = tcpService(async () => {});
  const notHttp = tcpService(async (conn) => {
    await conn.write(new TextEncoder().encode("SSH-2.0-OpenSSH_9.6\r\n\r\n"));
  });
  try {
    const allowedHosts = new Set(["127.0.0.1"]);
    assert.equal(
      (await probeEndpoint(`http://127.0.0.1:${port}/`, { allowedHosts })).message,
      `Connection refused by 127.0.0.1:${port}`,
    );
    assert.equal(
      (await probeEndpoint(`http://127.0.0.1:${silentClose.port}/`, { allowedHosts })).message,
      "Endpoint closed the connection without answering",
    );
    assert.equal(
      (await probeEndpoint(`http://127.0.0.1:${notHttp.port}/`, { allowedHosts })).message,
      "Endpoint did not answer with HTTP",
    );
  } finally {
    await silentClose.close();
    await notHttp.close();
  }
});
