/**
 * Bundles the SPA: esbuild (minified, split by route, content-hashed names) and Tailwind CSS.
 * `deno run -A build.ts` always builds; `--if-stale` builds only when a source is newer than the
 * last build, which is what `deno task start` uses.
 */
import * as esbuild from "esbuild";
import { compile, optimize } from "@tailwindcss/node";
import { Scanner } from "@tailwindcss/oxide";
import { gzipSync } from "node:zlib";

const ROOT = new URL(".", import.meta.url).pathname;
const DIST = `${ROOT}dist`;
const ASSETS = `${DIST}/assets`;
const MANIFEST = `${DIST}/manifest.json`;
const CSS_ENTRY = `${ROOT}src/web/styles.css`;
const SOURCE_DIRS = ["src/web", "src/domain", "src/server/auth"];
const SOURCE_FILES = ["build.ts", "deno.json", "package-lock.json"];

export interface BuildManifest {
  js: string;
  css: string;
  /** The server-rendered sign-in pages' own small script (src/web/sign_in_pages.ts). */
  signInJs: string;
  builtAt: string;
  initialJsGzipBytes: number;
  cssGzipBytes: number;
  /**
   * Per lazily loaded module (each route's screen, the chart, the slide-over menu): the gzipped
   * JavaScript it adds on top of the initial download, its own chunk and the shared chunks it
   * imports that are not initial. Keyed by source path relative to src/web.
   */
  lazyChunksGzipBytes: Record<string, number>;
}

async function newestSourceMtimeMs(): Promise<number> {
  let newest = 0;
  const visit = async (path: string) => {
    const info = await Deno.stat(path);
    if (info.isDirectory) {
      for await (const entry of Deno.readDir(path)) await visit(`${path}/${entry.name}`);
    } else {
      newest = Math.max(newest, info.mtime?.getTime() ?? 0);
    }
  };
  for (const dir of SOURCE_DIRS) await visit(`${ROOT}${dir}`);
  for (const file of SOURCE_FILES) {
    try {
      await visit(`${ROOT}${file}`);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return newest;
}

export async function isStale(): Promise<boolean> {
  try {
    const built = (await Deno.stat(MANIFEST)).mtime?.getTime() ?? 0;
    return (await newestSourceMtimeMs()) > built;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return true;
    throw error;
  }
}

async function buildCss(): Promise<string> {
  const input = await Deno.readTextFile(CSS_ENTRY);
  const compiler = await compile(input, { base: `${ROOT}src/web`, onDependency: () => {} });
  const scanner = new Scanner({ sources: compiler.sources });
  const candidates = scanner.scan();
  return optimize(compiler.build(candidates), { minify: true }).code;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function gzipSize(bytes: Uint8Array): number {
  return gzipSync(bytes, { level: 9 }).byteLength;
}

export async function build(): Promise<BuildManifest> {
  await Deno.remove(DIST, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  await Deno.mkdir(ASSETS, { recursive: true });

  const result = await esbuild.build({
    entryPoints: { main: `${ROOT}src/web/main.tsx`, "sign-in": `${ROOT}src/web/sign_in_pages.ts` },
    bundle: true,
    splitting: true,
    format: "esm",
    minify: true,
    target: "es2022",
    jsx: "automatic",
    outdir: ASSETS,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    metafile: true,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
  });
  await esbuild.stop();

  const outputs = result.metafile.outputs;
  const mainPath = Object.keys(outputs).find((path) => outputs[path].entryPoint?.endsWith("src/web/main.tsx"));
  const signInPath = Object.keys(outputs).find((path) => outputs[path].entryPoint?.endsWith("src/web/sign_in_pages.ts"));
  if (!mainPath || !signInPath) throw new Error("esbuild produced no entry chunk");
  const relative = (path: string) => path.slice(path.indexOf("dist/") + "dist".length);

  // Initial JavaScript: the entry chunk and every chunk it imports statically.
  const initial = new Set<string>();
  const walk = (path: string) => {
    if (initial.has(path)) return;
    initial.add(path);
    for (const imported of outputs[path].imports) {
      if (imported.kind === "import-statement") walk(imported.path);
    }
  };
  walk(mainPath);
  let initialJsGzipBytes = 0;
  for (const path of initial) {
    initialJsGzipBytes += gzipSize(await Deno.readFile(`${ROOT}${path}`));
  }

  // What each lazily loaded module adds to the initial download when it first loads.
  const lazyChunksGzipBytes: Record<string, number> = {};
  const sizes = new Map<string, number>();
  const sizeOf = async (path: string) => {
    if (!sizes.has(path)) sizes.set(path, gzipSize(await Deno.readFile(`${ROOT}${path}`)));
    return sizes.get(path)!;
  };
  for (const [path, output] of Object.entries(outputs)) {
    if (!output.entryPoint || path === mainPath || path === signInPath || initial.has(path)) continue;
    const own = new Set<string>();
    const collect = (chunk: string) => {
      if (own.has(chunk) || initial.has(chunk)) return;
      own.add(chunk);
      for (const imported of outputs[chunk].imports) {
        if (imported.kind === "import-statement") collect(imported.path);
      }
    };
    collect(path);
    let bytes = 0;
    for (const chunk of own) bytes += await sizeOf(chunk);
    lazyChunksGzipBytes[output.entryPoint.replace(/^.*src\/web\//, "")] = bytes;
  }

  const css = await buildCss();
  const cssName = `styles-${(await sha256Hex(css)).slice(0, 10).toUpperCase()}.css`;
  await Deno.writeTextFile(`${ASSETS}/${cssName}`, css);

  const js = relative(mainPath);
  const manifest: BuildManifest = {
    js,
    css: `/assets/${cssName}`,
    signInJs: relative(signInPath),
    builtAt: new Date().toISOString(),
    initialJsGzipBytes,
    cssGzipBytes: gzipSize(new TextEncoder().encode(css)),
    lazyChunksGzipBytes: Object.fromEntries(Object.entries(lazyChunksGzipBytes).sort(([a], [b]) => a.localeCompare(b))),
  };
  const modulePreloads = [...initial].filter((path) => path !== mainPath)
    .map((path) => `    <link rel="modulepreload" href="${relative(path)}">`).join("\n");
  await Deno.writeTextFile(
    `${DIST}/index.html`,
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Central Bank Registry Console</title>
    <link rel="stylesheet" href="${manifest.css}">
${modulePreloads}
    <script type="module" src="${js}"></script>
  </head>
  <body class="bg-slate-50 text-slate-900 antialiased">
    <div id="root"></div>
  </body>
</html>
`,
  );
  await Deno.writeTextFile(MANIFEST, JSON.stringify(manifest, null, 2));
  return manifest;
}

if (import.meta.main) {
  if (Deno.args.includes("--if-stale") && !(await isStale())) {
    console.log("build: dist/ is up to date");
  } else {
    const manifest = await build();
    console.log(
      `build: ${manifest.js} (initial JS ${(manifest.initialJsGzipBytes / 1024).toFixed(1)} KB gzip), ` +
        `${manifest.css} (${(manifest.cssGzipBytes / 1024).toFixed(1)} KB gzip)`,
    );
  }
}
