/**
 * The backup's sync thread (backup.ts): libSQL's sync is a blocking native call, so it runs here,
 * leaving the main thread free to give up on it once the backup's sync timeout has passed.
 * Message in: { path, syncUrl, authToken }; out: { frameNo } or { error }.
 */
/// <reference lib="deno.worker" />
import NativeDatabase from "libsql";

/** The package's types leave out `authToken`, which its index.js reads. */
type SyncOptions = NativeDatabase.Options & { authToken: string };

self.onmessage = (event: MessageEvent<{ path: string; syncUrl: string; authToken: string }>) => {
  const { path, syncUrl, authToken } = event.data;
  try {
    const options: SyncOptions = { syncUrl, authToken };
    const replica = new NativeDatabase(path, options);
    try {
      const synced = replica.sync() as { frame_no?: number | null } | undefined;
      self.postMessage({ frameNo: synced?.frame_no ?? null });
    } finally {
      replica.close();
    }
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
