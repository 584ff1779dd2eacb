/**
 * The per-request cost floor (bench/cpu_cost.ts): plain Hono doing the console's work on each hot
 * path and nothing else (no session, API key, request log, security headers or database), run as
 * its own process like the app server.
 *
 *   deno run --allow-net=127.0.0.1 bench/floor_server.ts <port, 0 for any> <routing code record JSON>
 *
 * - POST /api/iban/validate: @hono/zod-validator with the console's body shape, then the console's
 *   validateIban against the registry formats it seeds (held in memory, as the console's cache does).
 * - GET /api/routing-codes/:code: the console's check-digit validation of the parameter through
 *   @hono/zod-validator, then a lookup of the given record in a Map.
 * - GET /: a Hono hello-world, the floor of GET /api/auth/user.
 */
import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import { z } from "zod";
import registry from "../db/seed/iban_registry_r102.json" with { type: "json" };
import { type IbanCountryFormat, validateIban } from "../src/domain/iban.ts";
import { type IbanRegistryEntry, toIbanCountryFormat } from "../src/domain/iban_registry.ts";
import { validateRoutingCode } from "../src/domain/routing_code.ts";

const port = Number(Deno.args[0] ?? "0");
const routingCode: { code: string } = JSON.parse(Deno.args[1] ?? "null");
if (typeof routingCode?.code !== "string") {
  throw new Error("usage: floor_server.ts <port> <routing code JSON>");
}

const formats: ReadonlyMap<string, IbanCountryFormat> = new Map(
  (registry as IbanRegistryEntry[]).map((entry) => [entry.countryCode, toIbanCountryFormat(entry)]),
);
const routingCodes = new Map([[routingCode.code, routingCode]]);

const validateIbanBody = z.object({ iban: z.string() });
const routingCodeParam = z.object({
  code: z.string().superRefine((code, ctx) => {
    const result = validateRoutingCode(code);
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.error.message });
  }),
});

const app = new Hono();
app.get("/", (c) => c.text("Hello, World!"));
app.post("/api/iban/validate", zValidator("json", validateIbanBody), (c) => {
  return c.json(validateIban(c.req.valid("json").iban, formats));
});
app.get("/api/routing-codes/:code", zValidator("param", routingCodeParam), (c) => {
  const record = routingCodes.get(c.req.valid("param").code);
  return record === undefined ? c.json({ message: "Routing code not found" }, 404) : c.json(record);
});

Deno.serve({
  hostname: "127.0.0.1",
  port,
  onListen: ({ port }) => console.log(`listening ${port}`),
}, app.fetch);
