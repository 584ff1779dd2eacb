/**
 * The replica's sync thread (replication.ts): libSQL's sync and the first handshake with the
 * primary are blocking native calls that last as long as the primary takes to answer, about 3 s
 * when it does not, so they never run on the thread that serves requests.
 * Messages: ReplicaRequest in, ReplicaReply out.
 */
/// <reference lib="deno.worker" />
import NativeDatabase from "libsql";
import type { ReplicaReply, ReplicaRequest } from "./replication.ts";

let options: { path: string; syncUrl: string; authToken: string } | null = null;
let replica: NativeDatabase.Database | null = null;
const reply = (message: ReplicaReply) => self.postMessage(message);

self.onmessage = (event: MessageEvent<ReplicaRequest>) => {
  const message = event.data;
  switch (message.type) {
    case "open":
      options = message;
      return;
    case "sync":
      try {
        if (options === null) throw new Error("the replica was not opened");
        // Opened on first use: opening with a syncUrl fails while the primary cannot be reached.
        replica ??= new NativeDatabase(options.path, {
          syncUrl: options.syncUrl,
          authToken: options.authToken,
        });
        const replicated = replica.sync() as { frame_no?: number } | undefined;
        reply({ type: "synced", id: message.id, frameNo: replicated?.frame_no ?? null });
      } catch (error) {
        reply({
          type: "failed",
          id: message.id,
          message: error instanceof Error ? error.message : String(error),
        });
      }
      return;
    case "close":
      replica?.close();
      replica = null;
      reply({ type: "closed" });
      return;
  }
};
