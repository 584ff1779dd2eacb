/**
 * The directory's endpoints (docs/directory.md): the editions and their files for staff and API keys,
 * served from the database by every node with strong ETags; the next edition's preview; and the
 * request to publish it, which a second person approves.
 */
import { type Context, Hono } from "hono";
import { createHash } from "node:crypto";
import type { AppDeps, AppEnv } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import { submitForApproval } from "../approvals/four_eyes.ts";
import { editionParamSchema, nextEditionQuerySchema, prepareEditionSchema } from "./schemas.ts";
import {
  EDITION_FILES,
  editionByNumber,
  type EditionFileName,
  type EditionRow,
  listEditions,
} from "./service.ts";
import { assertPublishable, previewEdition } from "./preview.ts";
import { storedFileFacts, storedFileStream } from "./file_store.ts";
import { publicDirectoryKey } from "./signing_key.ts";

/** A published edition never changes: caches may keep its files for good and revalidate by ETag. */
const IMMUTABLE = "private, max-age=31536000, immutable";
/** The public key may be joined by a new one: always revalidated. */
const REVALIDATE = "private, no-cache";

/** Whether If-None-Match names this ETag (weak comparison, RFC 9110 section 13.1.2). */
function notModified(c: Context, etag: string): boolean {
  const header = c.req.header("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}

/**
 * A download: not in the API-key envelope (Content-Disposition marks it a file), with a strong ETag
 * and 304 when the client holds it already.
 */
function download(
  c: Context,
  body: string | Uint8Array<ArrayBuffer> | (() => ReadableStream<Uint8Array>),
  meta: { etag: string; contentType: string; fileName: string; cacheControl: string; size?: number },
): Response {
  // Through the context, so that the headers set before (the hourly limit's) are kept.
  c.header("ETag", meta.etag);
  c.header("Cache-Control", meta.cacheControl);
  c.header("Content-Disposition", `attachment; filename="${meta.fileName}"`);
  if (notModified(c, meta.etag)) return c.body(null, 304);
  c.header("Content-Type", meta.contentType);
  if (meta.size !== undefined) c.header("Content-Length", String(meta.size));
  return c.body(typeof body === "function" ? body() : body, 200);
}

function strongTag(bytes: string | Uint8Array): string {
  return `"${createHash("sha256").update(bytes).digest("hex")}"`;
}

const fileNameOf = (number: number, name: string) => `directory-edition-${number}-${name}`;

async function editionOr404(deps: AppDeps, number: number): Promise<EditionRow> {
  const edition = await editionByNumber(deps.db.read, number);
  if (!edition) throw notFound(`Directory edition ${number}`);
  return edition;
}

function signatureRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get("/directory/editions/:n/manifest.json", validate("param", editionParamSchema), async (c) => {
    const edition = await editionOr404(deps, c.req.valid("param").n);
    const bytes = new TextEncoder().encode(edition.manifest);
    return download(c, bytes, {
      etag: strongTag(bytes),
      contentType: "application/json",
      fileName: fileNameOf(edition.number, "manifest.json"),
      cacheControl: IMMUTABLE,
      size: bytes.length,
    });
  });
  app.get("/directory/editions/:n/manifest.json.sig", validate("param", editionParamSchema), async (c) => {
    const edition = await editionOr404(deps, c.req.valid("param").n);
    const bytes = new Uint8Array(edition.signature);
    return download(c, bytes, {
      etag: strongTag(bytes),
      contentType: "application/octet-stream",
      fileName: fileNameOf(edition.number, "manifest.json.sig"),
      cacheControl: IMMUTABLE,
      size: bytes.length,
    });
  });
  app.get("/directory/editions/:n/manifest.json.jws", validate("param", editionParamSchema), async (c) => {
    const edition = await editionOr404(deps, c.req.valid("param").n);
    return download(c, edition.jws, {
      etag: strongTag(edition.jws),
      contentType: "application/jose",
      fileName: fileNameOf(edition.number, "manifest.json.jws"),
      cacheControl: IMMUTABLE,
    });
  });
}

function fileRoute(app: Hono<AppEnv>, deps: AppDeps, name: EditionFileName): void {
  app.get(`/directory/editions/:n/${name}`, validate("param", editionParamSchema), async (c) => {
    const number = c.req.valid("param").n;
    const facts = await storedFileFacts(deps.db.statements, number, name);
    if (!facts) throw notFound(`Directory edition ${number}`);
    return download(c, () => storedFileStream(deps.db.statements, number, name), {
      etag: `"${facts.sha256}"`,
      contentType: facts.contentType,
      fileName: fileNameOf(number, name),
      cacheControl: IMMUTABLE,
      size: facts.sizeBytes,
    });
  });
}

function publicKeyRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const currentKey = async () => {
    const key = await publicDirectoryKey(deps.db.read);
    if (!key) throw notFound("Directory key");
    return key;
  };
  app.get("/directory/public-key.pem", async (c) => {
    const key = await currentKey();
    return download(c, key.publicKeyPem, {
      etag: strongTag(key.publicKeyPem),
      contentType: "application/x-pem-file",
      fileName: "directory-key.pem",
      cacheControl: REVALIDATE,
    });
  });
  app.get("/directory/public-key.jwk", async (c) => {
    const key = await currentKey();
    const text = JSON.stringify(key.publicKeyJwk);
    return download(c, text, {
      etag: strongTag(text),
      contentType: "application/jwk+json",
      fileName: "directory-key.jwk",
      cacheControl: REVALIDATE,
    });
  });
}

function editionRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get("/directory/editions", async (c) => {
    const editions = await listEditions(deps.db.read);
    return c.json(editions.map((edition) => ({
      ...edition,
      // An edition still publishing has no files yet.
      files: edition.status !== "published" ? [] : [
        "manifest.json",
        "manifest.json.sig",
        "manifest.json.jws",
        ...Object.keys(EDITION_FILES),
      ].map((name) => ({ name, url: `/api/directory/editions/${edition.number}/${name}` })),
    })));
  });
  app.get("/directory/next", validate("query", nextEditionQuerySchema), async (c) => {
    const { effectiveDate } = c.req.valid("query");
    return c.json(await previewEdition(deps.db, effectiveDate, deps.clock.now()));
  });
  app.post("/directory/editions", validate("json", prepareEditionSchema), async (c) => {
    const input = c.req.valid("json");
    const preview = await previewEdition(deps.db, input.effectiveDate, deps.clock.now());
    assertPublishable(preview);
    return await submitForApproval(c, deps, {
      kind: "directory_edition",
      payload: input,
      summary: {
        description: `Publish directory edition ${preview.number} effective ${
          input.effectiveDate.slice(0, 10)
        }: ${input.reason}`,
        edition: { number: preview.number, effectiveDate: input.effectiveDate, counts: preview.counts },
      },
      amountMinor: null,
      currency: null,
      // The preview above was the rehearsal (date and layout checked); the publisher reads the
      // registry again as it is when it builds the edition.
      rehearse: () => Promise.resolve(),
    }, input.reason);
  });
}

export function directoryRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  editionRoutes(app, deps);
  signatureRoutes(app, deps);
  for (const name of Object.keys(EDITION_FILES) as EditionFileName[]) fileRoute(app, deps, name);
  publicKeyRoutes(app, deps);
  return app;
}
