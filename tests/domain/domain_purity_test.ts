import assert from "node:assert/strict";

const DOMAIN_DIR = new URL("../../src/domain/", import.meta.url);
const IMPORT = /(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const IO_GLOBALS = /\b(Deno\.|fetch\(|XMLHttpRequest|localStorage|sessionStorage|document\.|window\.|process\.|require\()/;

Deno.test("src/domain imports only other src/domain modules and does no I/O", async () => {
  const problems: string[] = [];
  for await (const entry of Deno.readDir(DOMAIN_DIR)) {
    if (!entry.isFile || !/\.tsx?$/.test(entry.name)) continue;
    const text = await Deno.readTextFile(new URL(entry.name, DOMAIN_DIR));
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2];
      if (!specifier.startsWith("./") || specifier.includes("..")) problems.push(`${entry.name} imports ${specifier}`);
    }
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    const io = IO_GLOBALS.exec(code);
    if (io) problems.push(`${entry.name} uses ${io[1]}`);
  }
  assert.deepEqual(problems, []);
});
