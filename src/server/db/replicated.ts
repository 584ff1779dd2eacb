/**
 * A console node's database in the replicated topology: reads from an embedded replica of the
 * primary (sqld), kept fresh by its sync; transactions and batches run on the primary itself.
 *
 * Every write starts with a history mark (topology/history.ts), and every sync is preceded by the
 * check that the primary still holds this replica's newest mark. When it does not (the primary was
 * restored from a copy), the node stops serving the replica, sets its files aside under
 * `diverged/` next to it, rebuilds it from the primary and serves again, without a restart
 * (local_replica.ts); what the set-aside copy held that the primary lost is reported by the
 * listener given to `onRebuilt`.
 */
import { type Client, createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import * as schema from "../../../db/schema.ts";
import { AppError } from "../http/errors.ts";
import { compareHistory, HistoryMarks } from "../topology/history.ts";
import {
  isStatementError,
  isUnreachableError,
  ReplicaSync,
  resynchronisingError,
} from "../topology/replication.ts";
import { readPrimaryTime } from "../topology/clock.ts";
import { ChangeEpochs } from "./change_epochs.ts";
import { boundedFetch, boundedTransaction } from "./bounded_writes.ts";
import { clientBatchWriter, type Database, ensureParentDir, isFileUrl } from "./database.ts";
import { LocalReplica } from "./local_replica.ts";
import { Mutex } from "./mutex.ts";

export interface PrimaryOptions {
  syncUrl: string;
  authToken: string;
  syncIntervalMs: number;
  /**
   * Sync the replica after every committed write before returning, so that this process reads its
   * own writes at once (headquarters, where the primary is near); otherwise the caller syncs.
   */
  syncAfterWrite: boolean;
}

/** How long a node without a local copy waits for the primary before refusing to start. */
export const FIRST_SYNC_WAIT_MS = 60_000;
const FIRST_SYNC_RETRY_MS = 1_000;

/** Whether the replica file holds a copy: it is created empty (mode 0600) before the first sync. */
async function holdsCopy(path: string): Promise<boolean> {
  try {
    const stat = await Deno.stat(path);
    return stat.isFile && stat.size > 0;
  } catch {
    return false;
  }
}

/**
 * The first sync: with a local copy already there it goes ahead even while the primary is
 * unreachable (and catches up once it answers); without one it waits up to FIRST_SYNC_WAIT_MS.
 */
async function firstSync(replica: ReplicaSync, url: string, primary: PrimaryOptions): Promise<void> {
  const hasCopy = await holdsCopy(url.slice("file:".length));
  const deadlineMs = Date.now() + FIRST_SYNC_WAIT_MS;
  for (;;) {
    try {
      await replica.syncNow();
      return;
    } catch (error) {
      // A copy that diverged is being rebuilt: the node starts and answers 503 until it is done.
      if (replica.resynchronising) return;
      if (hasCopy) {
        console.warn(
          `The primary at ${primary.syncUrl} cannot be reached; serving the local copy until it answers.`,
        );
        return;
      }
      if (Date.now() >= deadlineMs) {
        void replica.close();
        throw new Error(
          `The primary at ${primary.syncUrl} could not be reached within ${
            FIRST_SYNC_WAIT_MS / 1000
          } s and there is ` +
            `no local copy yet: ${error instanceof Error ? error.message : error}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, FIRST_SYNC_RETRY_MS));
    }
  }
}

/**
 * Runs a write on the primary. A failure to reach it is a 503 that says since when the figures
 * are, never a 500; an error that is neither a refused statement nor clearly the network (a
 * connection dropped mid-answer, a transaction the client closed) is asked of the primary itself
 * with a sync.
 */
function primaryGuard(replica: ReplicaSync, syncAfterWrite: boolean) {
  return async <T>(fn: () => Promise<T>, { syncAfter = syncAfterWrite } = {}): Promise<T> => {
    let result: T;
    try {
      result = await fn();
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (isUnreachableError(error)) {
        replica.writeFailed();
        throw replica.pausedError();
      }
      if (!isStatementError(error) && !await replica.syncNow().then(() => true, () => false)) {
        throw replica.pausedError();
      }
      throw error;
    }
    if (syncAfter) await replica.syncNow().catch(() => {});
    return result;
  };
}

/** Opens `url` (a file) as an embedded replica of the primary: reads are local, writes go to the primary. */
export async function openReplicatedDatabase(url: string, primary: PrimaryOptions): Promise<Database> {
  if (!isFileUrl(url)) throw new Error(`the replica must be a file: URL, got ${url}`);
  await ensureParentDir(url, { create: false });
  const primaryClient: Client = createClient({
    url: primary.syncUrl,
    authToken: primary.authToken,
    intMode: "number",
    fetch: boundedFetch,
  });
  let local: LocalReplica | null = null;
  const marks = new HistoryMarks(() => local!.statements);
  const replica: ReplicaSync = new ReplicaSync({
    url,
    syncUrl: primary.syncUrl,
    authToken: primary.authToken,
    intervalMs: primary.syncIntervalMs,
    verify: async () => {
      if (local === null || !local.serving) return { diverged: false };
      await marks.refresh();
      return compareHistory(local.statements, primaryClient, marks);
    },
    onDiverged: (reason) =>
      void local?.rebuild(reason).catch((error) =>
        console.error("Rebuilding the replica failed; this node keeps refusing to serve it:", error)
      ),
  });
  local = new LocalReplica(url, replica);
  // A copy kept from an earlier run is compared with the primary before its first sync too.
  if (await holdsCopy(url.slice("file:".length))) await local.open();
  await firstSync(replica, url, primary);
  await local.whenServing();
  // The first sync created the replica's files with the umask's mode: owner-only from here on.
  await ensureParentDir(url, { create: false });
  await local.open();
  replica.startPeriodic();

  const write = drizzle(primaryClient, { schema });
  const mutex = new Mutex();
  const onPrimary = primaryGuard(replica, primary.syncAfterWrite);
  const batch = clientBatchWriter(primaryClient);
  // A write found the primary no longer holding this replica's newest mark: the next sync's own
  // check finds the same and rebuilds the replica; the write is refused meanwhile.
  const diverged = () => {
    replica.syncNow().catch(() => {});
    return resynchronisingError();
  };
  return {
    url,
    writesLocal: false,
    replica,
    readPrimaryTime: () => readPrimaryTime(primaryClient),
    read: drizzle(local.client, { schema }),
    readClient: local.client,
    statements: local.statements,
    epochs: new ChangeEpochs(local.statements),
    transaction: (fn) => onPrimary(() => boundedTransaction({ mutex, write, marks, notDone: () => replica.pausedError(), diverged }, fn)),
    writeBatch: async (statements) => {
      const head = marks.statements();
      const results = await onPrimary(() => batch([...head, ...statements]), { syncAfter: false });
      return results.slice(head.length);
    },
    onRebuilt: (listener) => local!.onRebuilt(listener),
    close() {
      primaryClient.close();
      local!.close();
      // Last: the replica's own connection is the one that may checkpoint its log on close.
      void replica.close();
    },
  };
}
