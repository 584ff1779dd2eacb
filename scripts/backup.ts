/**
 * `deno task backup --out DIR [--token-file FILE] [--sync-timeout-s SECONDS]`: a consistent copy of
 * the running primary (sqld), taken while it serves and takes writes (docs/deployment.md, "Backup
 * and restore"); the copy itself is src/server/backup/primary_copy.ts, which the console's scheduled
 * backup at headquarters runs too. The primary's URL comes from DATABASE_SYNC_URL and its token from
 * --token-file, else DATABASE_AUTH_TOKEN, as for a console node; the token is never printed.
 */
import { parseArgs } from "node:util";
import {
  DEFAULT_SYNC_TIMEOUT_S,
  type PrimaryBackupOptions,
  takePrimaryBackup,
} from "../src/server/backup/primary_copy.ts";

const USAGE = "usage: deno task backup --out DIR [--token-file FILE] [--sync-timeout-s SECONDS]\n" +
  "  the primary's URL from DATABASE_SYNC_URL; its token from --token-file, else DATABASE_AUTH_TOKEN";

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`);
  Deno.exit(2);
}

async function parseOptions(): Promise<PrimaryBackupOptions> {
  let values: { out?: string; "token-file"?: string; "sync-timeout-s": string };
  try {
    values = parseArgs({
      args: Deno.args,
      options: {
        out: { type: "string" },
        "token-file": { type: "string" },
        "sync-timeout-s": { type: "string", default: String(DEFAULT_SYNC_TIMEOUT_S) },
      },
    }).values;
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  const syncUrl = Deno.env.get("DATABASE_SYNC_URL") ?? "";
  if (!URL.canParse(syncUrl) || !["http:", "https:", "libsql:"].includes(new URL(syncUrl).protocol)) {
    usage("DATABASE_SYNC_URL must be the primary's http(s):// or libsql:// URL");
  }
  if (!values.out) usage("--out DIR is required");
  const seconds = Number(values["sync-timeout-s"]);
  if (!Number.isInteger(seconds) || seconds <= 0) usage("--sync-timeout-s must be a whole number of seconds");
  const tokenFile = values["token-file"];
  const token = tokenFile
    ? await Deno.readTextFile(tokenFile).catch((error) =>
      usage(`cannot read --token-file ${tokenFile}: ${error.message}`)
    )
    : Deno.env.get("DATABASE_AUTH_TOKEN") ?? "";
  const authToken = token.trim();
  if (authToken === "") usage("no token: give --token-file or set DATABASE_AUTH_TOKEN");
  return { syncUrl, authToken, outDir: values.out, syncTimeoutMs: seconds * 1000 };
}

if (import.meta.main) {
  const options = await parseOptions();
  const started = performance.now();
  try {
    const { dir, manifest } = await takePrimaryBackup(options);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Backup of ${manifest.sourceUrl} written to ${dir} in ${seconds} s: ${manifest.file}, ` +
        `${manifest.sizeBytes} bytes, SHA-256 ${manifest.sha256}, frame ${manifest.frameNo} of log ${manifest.logId}.`,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // libSQL's messages are not ours: the token must not leave in one of them.
    console.error(`Backup failed: ${message.replaceAll(options.authToken, "[token]")}`);
    // The sync thread may still be blocked in native code; exiting ends it.
    Deno.exit(1);
  }
}
