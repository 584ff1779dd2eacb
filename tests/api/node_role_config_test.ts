/** NODE_ROLE and the replication settings: what each role needs, and a clear refusal otherwise. */
import assert from "node:assert/strict";
import { loadConfig } from "../../src/server/config.ts";
import { serverPermissions } from "../../scripts/start.ts";

const replica = {
  DATABASE_SYNC_URL: "http://127.0.0.1:8080",
  DATABASE_AUTH_TOKEN: "token",
};

Deno.test("standalone is the default and refuses replication settings", () => {
  const config = loadConfig({ DATA_DIR: "/tmp/x" });
  assert.equal(config.role, "standalone");
  assert.equal(config.replication, null);
  assert.equal(config.databaseUrl, "file:/tmp/x/console.db");
  assert.throws(() => loadConfig({ REGION: "north" }), /REGION apply to NODE_ROLE=headquarters or regional only/);
  assert.throws(() => loadConfig({ NODE_ROLE: "edge" }), /NODE_ROLE must be one of standalone, headquarters, regional/);
});

Deno.test("a regional node needs its primary, token, region and headquarters", () => {
  const env = { NODE_ROLE: "regional", REGION: "north", HQ_CONSOLE_URL: "http://127.0.0.1:5000", DATA_DIR: "/tmp/r", ...replica };
  const config = loadConfig(env);
  assert.equal(config.role, "regional");
  assert.equal(config.replication?.region, "north");
  assert.equal(config.replication?.syncIntervalMs, 1_000);
  assert.equal(config.databaseUrl, "file:/tmp/r/replica.db");
  assert.equal(config.embeddedDatabase, false);
  for (const missing of ["REGION", "HQ_CONSOLE_URL", "DATABASE_SYNC_URL", "DATABASE_AUTH_TOKEN"]) {
    const without: Record<string, string> = { ...env };
    delete without[missing];
    assert.throws(() => loadConfig(without), new RegExp(missing), missing);
  }
  assert.throws(() => loadConfig({ ...env, REGION: "North Office" }), /REGION must be lower-case/);
  assert.throws(() => loadConfig({ ...env, DATABASE_URL: "http://127.0.0.1:9/db" }), /must be a file: URL/);
  assert.throws(() => loadConfig({ ...env, DATABASE_SYNC_INTERVAL_MS: "5" }), /between 100 and 300000/);
  assert.throws(() => loadConfig({ ...env, DATABASE_SYNC_URL: "ftp://x" }), /must be an http\(s\) URL/);
  assert.throws(() => loadConfig({ ...env, NODES_PUBLIC_KEY_FILE: "/k.pem" }), /headquarters only/);
});

Deno.test("headquarters takes no headquarters URL and names its region itself", () => {
  const env = { NODE_ROLE: "headquarters", ...replica };
  const config = loadConfig(env);
  assert.equal(config.replication?.region, "headquarters");
  assert.equal(config.replication?.headquartersUrl, null);
  assert.throws(() => loadConfig({ ...env, HQ_CONSOLE_URL: "http://127.0.0.1:5000" }), /regional only/);
  assert.throws(() => loadConfig({ ...env, REGION: "north" }), /REGION is "headquarters"/);
});

Deno.test("a replicated node may reach its primary and headquarters, and no other host", () => {
  const permissions = serverPermissions({
    NODE_ROLE: "regional",
    REGION: "south",
    HQ_CONSOLE_URL: "https://hq.cb.example",
    DATABASE_SYNC_URL: "http://primary.cb.example:8080",
    DATABASE_AUTH_TOKEN: "token",
    PORT: "5002",
  });
  const net = permissions.find((flag) => flag.startsWith("--allow-net"));
  assert.equal(net, "--allow-net=127.0.0.1:5002,primary.cb.example:8080,hq.cb.example:443");
  assert.ok(!permissions.includes("--allow-run"));
});
