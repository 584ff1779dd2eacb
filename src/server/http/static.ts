/**
 * Serves the built SPA from dist/: hashed assets with a one-year immutable cache, and index.html
 * (never cached) for every client route.
 */
import type { Context } from "hono";

const CONTENT_TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  html: "text/html; charset=utf-8",
  json: "application/json",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  woff2: "font/woff2",
};
const ASSET_NAME = /^[A-Za-z0-9_.-]+$/;

export interface Manifest {
  js: string;
  css: string;
  /** Absent in a build from before the sign-in pages had a script: they work without it. */
  signInJs?: string;
  initialJsGzipBytes: number;
  cssGzipBytes: number;
}

export async function readManifest(distDir: string): Promise<Manifest | null> {
  try {
    return JSON.parse(await Deno.readTextFile(`${distDir}/manifest.json`));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

export function staticHandlers(distDir: string) {
  const assetCache = new Map<string, Uint8Array>();
  let indexHtml: string | null = null;

  async function asset(c: Context) {
    const name = c.req.path.slice("/assets/".length);
    if (!ASSET_NAME.test(name)) return c.notFound();
    let body = assetCache.get(name);
    if (!body) {
      try {
        body = await Deno.readFile(`${distDir}/assets/${name}`);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return c.text("Not Found", 404);
        throw error;
      }
      assetCache.set(name, body);
    }
    const extension = name.slice(name.lastIndexOf(".") + 1);
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": CONTENT_TYPES[extension] ?? "application/octet-stream",
      "Cache-Control": "public, max-age=31536000, immutable",
    });
  }

  async function spa(c: Context) {
    if (indexHtml === null) {
      try {
        indexHtml = await Deno.readTextFile(`${distDir}/index.html`);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
        return c.text("The console has not been built: run `deno task build`.", 503);
      }
    }
    c.header("Cache-Control", "no-cache");
    return c.html(indexHtml);
  }

  return { asset, spa };
}
