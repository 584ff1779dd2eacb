/**
 * Registry import routes, mounted under /api (docs/directory_import.md). Both POSTs take the
 * directory file itself as a text/csv body, up to MAX_IMPORT_FILE_BYTES (http/security.ts allows
 * these two paths that body).
 */
import { type Context, Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { AppError } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import { pendingBody } from "../approvals/four_eyes.ts";
import { importChangeLimit } from "./plan.ts";
import { IMPORT_CONTENT_TYPE, importIdParam, submitQuery } from "./schemas.ts";
import { dryRun, getImport, listImports, submitImport } from "./service.ts";

async function uploadedFile(c: Context<AppEnv>): Promise<Uint8Array> {
  const type = c.req.header("content-type")?.split(";")[0].trim().toLowerCase();
  if (type !== IMPORT_CONTENT_TYPE) {
    throw new AppError(
      "unsupported_media_type",
      `Send the directory file as the body, with Content-Type ${IMPORT_CONTENT_TYPE}`,
    );
  }
  return new Uint8Array(await c.req.arrayBuffer());
}

export function registryImportRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();
  const now = () => new Date(deps.clock.now());

  const maxChanges = importChangeLimit(config.role);

  app.post("/directory/imports/dry-run", async (c) => {
    return c.json(await dryRun(db.read, await uploadedFile(c), now(), maxChanges));
  });

  app.post("/directory/imports", validate("query", submitQuery), async (c) => {
    const { fileName, requestReason } = c.req.valid("query");
    const bytes = await uploadedFile(c);
    const outcome = await submitImport(db, actorOf(c, config), bytes, {
      fileName,
      reason: requestReason,
      now: now(),
      maxChanges,
    });
    if (outcome.kind === "existing") return c.json(outcome.import, 200);
    return c.json({ ...pendingBody(outcome.request), import: outcome.import }, 202);
  });

  app.get("/directory/imports", async (c) => c.json(await listImports(db.statements, now())));

  app.get("/directory/imports/:id", validate("param", importIdParam), async (c) => {
    return c.json(await getImport(db.statements, c.req.valid("param").id, now()));
  });

  return app;
}
