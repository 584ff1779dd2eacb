/** Central bank connections: list, create, live test, and the pre-configured partner (spec 2.9 and 7). */
import { Hono } from "hono";
import { z } from "zod";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { AppError } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import { loadPartnerConfig } from "./partner_config.ts";
import { probeEndpoint, type ProbeResult } from "./probe.ts";
import { connectionIdParam, type ConnectionTestResult, createConnectionBody } from "./schemas.ts";
import {
  createConnection,
  establishPartnerConnection,
  findConnection,
  listConnections,
  recordTestResult,
} from "./service.ts";

/** Each test holds a socket for up to 5 s; this bounds what a burst of clicks can hold open. */
export const MAX_CONCURRENT_TESTS = 8;
export const NO_ENDPOINT_MESSAGE = "No API endpoint is configured for this connection";

/** The establish call takes no fields: everything comes from the partner configuration file. */
const emptyBody = z.object({}).strict();

export function centralBankConnectionsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const probe = limitedProbe(deps.config.features.connectionTestAllowedHosts);

  app.get(
    "/central-bank-connections",
    async (c) => c.json(await listConnections(deps.db.read, deps.secrets)),
  );

  app.post("/central-bank-connections", validate("json", createConnectionBody), async (c) => {
    const connection = await createConnection(
      deps.db,
      deps.secrets,
      actorOf(c, deps.config),
      c.req.valid("json"),
    );
    return c.json(connection, 201);
  });

  app.post("/central-bank-connections/:id/test", validate("param", connectionIdParam), async (c) => {
    const { id } = c.req.valid("param");
    const connection = await findConnection(deps.db.read, id);
    const result: ProbeResult = connection.apiEndpoint === null
      ? { success: false, message: NO_ENDPOINT_MESSAGE, latencyMs: 0, statusCode: null }
      : await probe(connection.apiEndpoint);
    await recordTestResult(deps.db, actorOf(c, deps.config), id, result);
    return c.json(
      {
        success: result.success,
        message: result.message,
        latency: result.latencyMs,
      } satisfies ConnectionTestResult,
    );
  });

  partnerRoutes(app, deps);
  return app;
}

/** Probes an endpoint, refusing once MAX_CONCURRENT_TESTS probes are in flight. */
function limitedProbe(allowedHosts: AppDeps["config"]["features"]["connectionTestAllowedHosts"]) {
  let testsInFlight = 0;
  return async (apiEndpoint: string): Promise<ProbeResult> => {
    if (testsInFlight >= MAX_CONCURRENT_TESTS) {
      throw new AppError(
        "rate_limited",
        `At most ${MAX_CONCURRENT_TESTS} connection tests may run at once`,
      );
    }
    testsInFlight += 1;
    try {
      return await probeEndpoint(apiEndpoint, { allowedHosts });
    } finally {
      testsInFlight -= 1;
    }
  };
}

/** The pre-configured partner: its settings, and establishing the connection to it. */
function partnerRoutes(app: Hono<AppEnv>, deps: AppDeps) {
  const partner = loadPartnerConfig(deps.config.features.partnerConnectionFile);

  app.get("/establish-loc-connection/config", (c) =>
    c.json({
      associationName: partner.associationName,
      partnerCentralBank: partner.partnerCentralBank,
      connectionType: partner.connectionType,
      partnerBankCode: partner.partnerBankCode,
      partnerSwiftCode: partner.partnerSwiftCode,
      messageStandard: partner.messageStandard,
      settlementCurrency: partner.settlementCurrency,
      apiEndpoint: partner.apiEndpoint,
      authenticationMethod: partner.authenticationMethod,
    }));

  app.post("/establish-loc-connection", validate("json", emptyBody.optional()), async (c) => {
    const connection = await establishPartnerConnection(
      deps.db,
      deps.secrets,
      actorOf(c, deps.config),
      partner,
    );
    return c.json(connection, 201);
  });
}
