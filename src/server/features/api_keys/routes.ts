/** API key management, administrators only (spec 2.14): POST/GET /api/api-keys, DELETE /api/api-keys/{id}. */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { apiKeyIdParamSchema, createApiKeySchema } from "./schemas.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "./service.ts";

export function apiKeysRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/api-keys", async (c) => c.json(await listApiKeys(deps.db.read)));

  app.post("/api-keys", validate("json", createApiKeySchema), async (c) => {
    const created = await createApiKey(deps.db, actorOf(c, deps.config), c.req.valid("json"));
    // The key is in this body and nowhere else: no cache may keep it.
    c.header("Cache-Control", "no-store");
    return c.json(created, 201);
  });

  app.delete("/api-keys/:id", validate("param", apiKeyIdParamSchema), async (c) => {
    return c.json(await revokeApiKey(deps.db, actorOf(c, deps.config), c.req.valid("param").id));
  });

  return app;
}
