/**
 * The request log's writer thread: builds the redacted rows of each batch and inserts them in one
 * transaction on its own connection, so neither the redaction nor SQLite's work runs on the thread
 * that serves requests. Messages: WriterRequest in, WriterReply out (request_log_writer.ts).
 */
/// <reference lib="deno.worker" />
import { openWriter } from "../db.ts";
import { insertLogRows, logRowsOf } from "./request_log_rows.ts";
import type { WriterReply, WriterRequest } from "./request_log_writer.ts";

let writer: ReturnType<typeof openWriter> | null = null;
const reply = (message: WriterReply) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<WriterRequest>) => {
  const message = event.data;
  switch (message.type) {
    case "open":
      // Bookkeeping: a power loss may forget the last log rows, a process crash cannot; and no
      // fsync while the write lock is held, which the serving thread's counters wait for.
      writer = openWriter(message.url, { logWriter: true });
      return;
    case "write":
      try {
        if (writer === null) throw new Error("the writer was not opened");
        const rows = logRowsOf(JSON.parse(message.entries));
        await writer.writeStatements((statements) => insertLogRows(statements, rows));
        reply({ type: "written", id: message.id });
      } catch (error) {
        reply({
          type: "failed",
          id: message.id,
          message: error instanceof Error ? error.message : String(error),
        });
      }
      return;
    case "close":
      writer?.close();
      writer = null;
      reply({ type: "closed" });
      return;
  }
};
