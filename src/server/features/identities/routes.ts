/** A user's provider identities (administrators): list, link, unlink. */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { userIdParam } from "../users/schemas.ts";
import { identityBody } from "./schemas.ts";
import { identityLinkDraft, linkProviderIdentity, listProviderIdentities, unlinkProviderIdentity } from "./service.ts";
import { administer } from "../approvals/four_eyes.ts";

export function identitiesRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();

  app.get("/users/:id/identities", validate("param", userIdParam), async (c) =>
    c.json({
      // The issuer a link needs for the configured provider: OIDC_ISSUER as the provider states it.
      configuredIssuer: config.oidc?.expectedIssuer ?? null,
      identities: await listProviderIdentities(db.read, c.req.valid("param").id),
    }));

  app.post(
    "/users/:id/identities",
    validate("param", userIdParam),
    validate("json", identityBody),
    async (c) => {
      const actor = actorOf(c, config);
      const { id } = c.req.valid("param");
      const { issuer, subject } = c.req.valid("json");
      return await administer(
        c,
        deps,
        () => identityLinkDraft(actor, id, { issuer, subject }),
        async (origin) => c.json(await linkProviderIdentity(db, actor, id, { issuer, subject }, origin), 201),
      );
    },
  );

  app.delete(
    "/users/:id/identities",
    validate("param", userIdParam),
    validate("json", identityBody),
    async (c) => {
      await unlinkProviderIdentity(db, actorOf(c, config), c.req.valid("param").id, c.req.valid("json"));
      return c.body(null, 204);
    },
  );

  return app;
}
