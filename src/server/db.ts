/**
 * The only module that opens database connections.
 *
 * Two single-connection libSQL clients share one file: `read` serves queries outside transactions,
 * `write` serves transactions, one at a time through a mutex. With one connection per client the
 * per-connection PRAGMAs set at open stay in force for the life of the process.
 */
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "../../db/schema.ts";
import { Mutex } from "./mutex.ts";

export type Schema = typeof schema;
export type Db = LibSQLDatabase<Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Either the read handle or an open transaction: for queries that work in both. */
export type Queryable = Db | Tx;

export const BUSY_TIMEOUT_MS = 5_000;

/** FULL: in WAL mode, NORMAL can lose the last commits on power loss; FULL cannot. */
const CONNECTION_PRAGMAS = [
  "PRAGMA foreign_keys = ON",
  `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`,
  "PRAGMA synchronous = FULL",
];

export interface Database {
  url: string;
  read: Db;
  readClient: Client;
  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE); commits when it resolves. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): void;
}

function isFileUrl(url: string) {
  return url.startsWith("file:");
}

async function ensureParentDir(url: string) {
  const path = url.slice("file:".length);
  const slash = path.lastIndexOf("/");
  if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
}

async function openClient(url: string): Promise<Client> {
  const client = createClient({ url, concurrency: 1, intMode: "number" });
  if (isFileUrl(url)) {
    await client.execute("PRAGMA journal_mode = WAL");
    for (const pragma of CONNECTION_PRAGMAS) await client.execute(pragma);
  }
  return client;
}

export async function openDatabase(url: string): Promise<Database> {
  if (isFileUrl(url)) await ensureParentDir(url);
  const readClient = await openClient(url);
  const writeClient = await openClient(url);
  const read = drizzle(readClient, { schema });
  const write = drizzle(writeClient, { schema });
  const mutex = new Mutex();
  return {
    url,
    read,
    readClient,
    transaction: (fn) => mutex.run(() => write.transaction(fn)),
    close() {
      readClient.close();
      writeClient.close();
    },
  };
}
