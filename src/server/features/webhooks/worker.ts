/**
 * The delivery worker, at headquarters or on a standalone node (main.ts): it follows the event outbox
 * by seq, queues one delivery per (event, subscribed webhook), and sends the due ones, at most
 * MAX_CONCURRENT_DELIVERIES at once. It runs after the change committed and apart from it, so a slow
 * or failing endpoint never delays nor fails the change that caused the event.
 *
 * The outbox cursor moves in the same transaction that queues the deliveries of the events it
 * passes, so a restart neither loses nor repeats one. An attempt holds a lease (claimed_until); an
 * attempt cut off by a crash is taken up again when its lease runs out.
 */
import { DEFAULT_RETRY_POLICY, isWebhookEventKind, type RetryPolicy } from "../../../domain/webhooks.ts";
import { type Database, statementsOf } from "../../db/database.ts";
import type { AppDeps } from "../../http/context.ts";
import type { OutboundPolicy } from "../../http/outbound.ts";
import { attemptDelivery, type Claim } from "./attempt.ts";
import { ATTEMPT_TIMEOUT_MS, EXCERPT_READ_TIMEOUT_MS } from "./sender.ts";
import { webhookPolicy } from "./settings.ts";

/** How often the outbox and the due deliveries are looked at. */
export const POLL_INTERVAL_MS = 1_000;
/** Events queued per transaction, so that one burst does not hold the write lock long. */
export const FANOUT_BATCH_SIZE = 200;
export const MAX_CONCURRENT_DELIVERIES = 4;
/** An attempt's lease outlasts its timeout by this much before another turn may take it up. */
const CLAIM_MARGIN_MS = 5_000;

export interface WebhookWorkerOptions {
  pollIntervalMs: number;
  retryPolicy: RetryPolicy;
  attemptTimeoutMs: number;
  maxConcurrent: number;
  outbound: OutboundPolicy;
}

export interface WebhookWorker {
  /** One turn now: queue new events' deliveries and start the due attempts. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

export function startWebhookWorker(
  deps: AppDeps,
  overrides: Partial<WebhookWorkerOptions> = {},
): WebhookWorker {
  const options: WebhookWorkerOptions = {
    pollIntervalMs: POLL_INTERVAL_MS,
    retryPolicy: DEFAULT_RETRY_POLICY,
    attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
    maxConcurrent: MAX_CONCURRENT_DELIVERIES,
    outbound: webhookPolicy(deps.config.features.webhookAllowedHosts),
    ...overrides,
  };
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let turn: Promise<void> = Promise.resolve();

  const runTurn = async () => {
    await queueNewEvents(deps.db);
    const free = options.maxConcurrent - inFlight.size;
    if (free <= 0) return;
    const leaseMs = options.attemptTimeoutMs + EXCERPT_READ_TIMEOUT_MS + CLAIM_MARGIN_MS;
    for (const claim of await claimDue(deps.db, free, leaseMs)) {
      const attempt = attemptDelivery(deps, claim, options).catch((error) =>
        console.error(`webhook delivery ${claim.id}: ${error instanceof Error ? error.message : error}`)
      ).finally(() => inFlight.delete(attempt));
      inFlight.add(attempt);
    }
  };
  const runOnce = () => {
    turn = turn.then(runTurn).catch((error) =>
      console.error(`webhook worker: ${error instanceof Error ? error.message : error}`)
    );
    return turn;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => runOnce().finally(schedule), options.pollIntervalMs);
  };
  schedule();
  const idle = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await turn;
      await idle();
    },
  };
}

interface HookRow {
  id: string;
  eventKinds: string;
  afterSeq: number;
  [column: string]: unknown;
}

/** Queues the deliveries of the events after the cursor, one batch, and moves the cursor past them. */
export async function queueNewEvents(db: Database): Promise<number> {
  // A read first: the write transaction is opened only when there is something to queue.
  const newest = await db.statements.get<{ lastSeq: number; maxSeq: number | null }>(
    "SELECT (SELECT last_seq FROM webhook_cursor WHERE id = 1) AS lastSeq, (SELECT max(seq) FROM events) AS maxSeq",
    [],
  );
  if (newest === undefined || newest.maxSeq === null || newest.maxSeq <= newest.lastSeq) return 0;
  return await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    const cursor = await statements.get<{ lastSeq: number }>(
      "SELECT last_seq AS lastSeq FROM webhook_cursor WHERE id = 1",
      [],
    );
    const from = cursor?.lastSeq ?? 0;
    const events = await statements.all<{ seq: number; id: string; kind: string }>(
      "SELECT seq, id, kind FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
      [from, FANOUT_BATCH_SIZE],
    );
    if (events.length === 0) return 0;
    const hooks = await statements.all<HookRow>(
      `SELECT id, event_kinds AS eventKinds, after_seq AS afterSeq FROM webhooks
       WHERE deleted_at IS NULL AND enabled = 1`,
      [],
    );
    const now = new Date().toISOString();
    let queued = 0;
    for (const event of events) {
      if (!isWebhookEventKind(event.kind)) continue;
      for (const hook of hooks) {
        if (event.seq <= hook.afterSeq || !(JSON.parse(hook.eventKinds) as string[]).includes(event.kind)) {
          continue;
        }
        queued += await statements.run(
          `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_kind, status, next_attempt_at, created_at)
           VALUES (?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT (webhook_id, event_id) DO NOTHING`,
          [crypto.randomUUID(), hook.id, event.id, event.kind, now, now],
        );
      }
    }
    await statements.run("UPDATE webhook_cursor SET last_seq = ? WHERE id = 1", [
      events[events.length - 1].seq,
    ]);
    return queued;
  });
}

const DUE_CONDITION = `d.status = 'pending' AND d.next_attempt_at <= ?
  AND (d.claimed_until IS NULL OR d.claimed_until <= ?)
  AND d.webhook_id IN (SELECT id FROM webhooks WHERE enabled = 1 AND deleted_at IS NULL)`;

/** Leases up to `limit` due deliveries of enabled webhooks, oldest due first. */
export async function claimDue(db: Database, limit: number, leaseMs: number): Promise<Claim[]> {
  const now = new Date();
  const nowText = now.toISOString();
  const any = await db.statements.get(
    `SELECT 1 AS due FROM webhook_deliveries d WHERE ${DUE_CONDITION} LIMIT 1`,
    [
      nowText,
      nowText,
    ],
  );
  if (any === undefined) return [];
  const claimedUntil = new Date(now.getTime() + leaseMs).toISOString();
  return await db.transaction(async (tx) => {
    const rows = await statementsOf(tx).all<{ id: string }>(
      `UPDATE webhook_deliveries SET claimed_until = ? WHERE id IN (
         SELECT d.id FROM webhook_deliveries d WHERE ${DUE_CONDITION} ORDER BY d.next_attempt_at LIMIT ?)
       RETURNING id`,
      [claimedUntil, nowText, nowText, limit],
    );
    return rows.map((row) => ({ id: row.id, claimedUntil }));
  });
}
