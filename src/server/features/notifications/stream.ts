/**
 * The live feed, GET /api/notifications/stream: server-sent events that bring each new notification
 * of the signed-in user within STREAM_POLL_INTERVAL_MS. The stream polls the local database (a
 * regional node's replica, which the sync keeps fresh) with one cheap max(seq) look-up, and reads the
 * user's events only when the outbox moved. It ends when the client goes away, when the session ends
 * (checked every STREAM_SESSION_CHECK_INTERVAL_MS, without counting as activity), and each user may
 * hold at most MAX_STREAMS_PER_USER open at once in one process.
 */
import type { Context } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import { sessionResolver } from "../../auth/middleware.ts";
import { readSessionToken } from "../../auth/session_cookie.ts";
import type { AppDeps, AppEnv } from "../../http/context.ts";
import { AppError } from "../../http/errors.ts";
import { latestSeq, notificationsAfter, type Reader, unreadCount } from "./service.ts";

export const STREAM_POLL_INTERVAL_MS = 250;
export const STREAM_SESSION_CHECK_INTERVAL_MS = 5_000;
/** A comment line this often keeps proxies from closing an idle stream. */
export const STREAM_KEEPALIVE_INTERVAL_MS = 15_000;
export const MAX_STREAMS_PER_USER = 5;
/** Notifications sent per poll; a longer backlog follows on the next polls. */
export const STREAM_BATCH = 50;
/** How soon the browser reconnects after the stream was cut. */
export const STREAM_RETRY_MS = 3_000;

/** Open streams per user id in this process. */
export class StreamCounter {
  readonly #open = new Map<string, number>();

  acquire(userId: string): boolean {
    const open = this.#open.get(userId) ?? 0;
    if (open >= MAX_STREAMS_PER_USER) return false;
    this.#open.set(userId, open + 1);
    return true;
  }

  release(userId: string): void {
    const open = (this.#open.get(userId) ?? 1) - 1;
    if (open <= 0) this.#open.delete(userId);
    else this.#open.set(userId, open);
  }
}

interface StreamState {
  reader: Reader;
  lastSeq: number;
  lastSessionCheckMs: number;
  lastWriteMs: number;
}

async function sendNew(deps: AppDeps, stream: SSEStreamingApi, state: StreamState): Promise<void> {
  const top = await latestSeq(deps.db.read);
  if (top <= state.lastSeq) return;
  const items = await notificationsAfter(deps.db.read, state.reader, state.lastSeq, STREAM_BATCH);
  for (const item of items) {
    await stream.writeSSE({ event: "notification", id: String(item.seq), data: JSON.stringify(item) });
  }
  state.lastSeq = items.length === STREAM_BATCH ? items[items.length - 1].seq : top;
  if (items.length > 0) {
    const count = await unreadCount(deps.db.read, state.reader);
    await stream.writeSSE({ event: "unread", data: JSON.stringify({ unreadCount: count }) });
    state.lastWriteMs = Date.now();
  }
}

/** Whether the session still holds; the roles are re-read with it, so a revoked role stops its events. */
async function sessionHolds(deps: AppDeps, token: string, state: StreamState): Promise<boolean> {
  const session = await sessionResolver(deps).resolve(token, false);
  if (session === null || session.user.id !== state.reader.id) return false;
  state.reader = { id: session.user.id, roles: session.user.roles };
  return true;
}

async function follow(deps: AppDeps, stream: SSEStreamingApi, token: string, state: StreamState): Promise<void> {
  await stream.writeSSE({
    event: "unread",
    retry: STREAM_RETRY_MS,
    data: JSON.stringify({ unreadCount: await unreadCount(deps.db.read, state.reader) }),
  });
  while (!stream.aborted && !stream.closed) {
    await stream.sleep(STREAM_POLL_INTERVAL_MS);
    if (stream.aborted) return;
    const nowMs = Date.now();
    if (nowMs - state.lastSessionCheckMs >= STREAM_SESSION_CHECK_INTERVAL_MS) {
      state.lastSessionCheckMs = nowMs;
      if (!(await sessionHolds(deps, token, state))) {
        await stream.writeSSE({ event: "end", data: JSON.stringify({ reason: "session_ended" }) });
        return;
      }
    }
    await sendNew(deps, stream, state);
    if (nowMs - state.lastWriteMs >= STREAM_KEEPALIVE_INTERVAL_MS) {
      await stream.write(": keep-alive\n\n");
      state.lastWriteMs = nowMs;
    }
  }
}

export function notificationStream(deps: AppDeps, counter: StreamCounter) {
  return async (c: Context<AppEnv>) => {
    // Only an EventSource (or a client that asks the same) gets a stream that never ends by itself.
    if (!/text\/event-stream/.test(c.req.header("accept") ?? "")) {
      throw new AppError("validation", "Open the live feed as server-sent events: Accept: text/event-stream", {
        field: "accept",
      });
    }
    const token = readSessionToken(c, deps.config);
    if (token === undefined) throw new AppError("unauthorized", "The live feed needs a signed-in session");
    const user = c.get("user");
    if (!counter.acquire(user.id)) {
      throw new AppError("rate_limited", `At most ${MAX_STREAMS_PER_USER} live notification streams per user`);
    }
    // Resuming (the browser sends the last id it saw): nothing between is lost; else from now on.
    const resumeFrom = Number(c.req.header("last-event-id"));
    const state: StreamState = {
      reader: { id: user.id, roles: user.roles },
      lastSeq: Number.isSafeInteger(resumeFrom) && resumeFrom > 0 ? resumeFrom : await latestSeq(deps.db.read),
      lastSessionCheckMs: Date.now(),
      lastWriteMs: Date.now(),
    };
    // Tells any proxy in front (nginx) not to buffer the stream.
    c.header("X-Accel-Buffering", "no");
    return streamSSE(c, async (stream) => {
      try {
        await follow(deps, stream, token, state);
      } finally {
        counter.release(user.id);
      }
    }, (error) => {
      console.error(`Notification stream failed: ${error.message}`);
      return Promise.resolve();
    });
  };
}
