-- Webhooks for downstream systems (src/server/features/webhooks, docs/webhooks.md). An administrator
-- registers an HTTPS endpoint with the event kinds it wants; the server signs each delivery with the
-- endpoint's secret (Standard Webhooks), kept encrypted like the connections' credentials.
-- A removed webhook keeps its row (deleted_at) so that its delivery log stays readable in the database.
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL CHECK (length(url) BETWEEN 1 AND 500),
  description TEXT CHECK (description IS NULL OR length(description) BETWEEN 1 AND 200),
  event_kinds TEXT NOT NULL CHECK (json_valid(event_kinds) AND json_type(event_kinds) = 'array'),
  secret_encrypted TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  -- Events up to this outbox seq happened before the webhook existed and are never delivered to it.
  after_seq INTEGER NOT NULL CHECK (after_seq >= 0),
  created_at TEXT NOT NULL,
  created_by TEXT REFERENCES users(id),
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE UNIQUE INDEX webhooks_url_live ON webhooks (url) WHERE deleted_at IS NULL;
CREATE INDEX webhooks_created_by ON webhooks (created_by);

-- How far the delivery worker has read the outbox: one row, moved in the transaction that creates the
-- deliveries of the events it passed, so a restart neither loses nor repeats one.
CREATE TABLE webhook_cursor (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_seq INTEGER NOT NULL CHECK (last_seq >= 0)
);
INSERT INTO webhook_cursor (id, last_seq) VALUES (1, (SELECT coalesce(max(seq), 0) FROM events));

-- One delivery per (event, webhook). `round_*` counts the attempts since it was queued or redelivered
-- by hand, which the retry limit applies to; `claimed_until` is the lease of the attempt in flight.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id),
  event_id TEXT NOT NULL REFERENCES events(id),
  event_kind TEXT NOT NULL CHECK (length(event_kind) BETWEEN 1 AND 64),
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count INTEGER NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
  round_attempts INTEGER NOT NULL DEFAULT 0 CHECK (round_attempts >= 0),
  next_attempt_at TEXT,
  claimed_until TEXT,
  created_at TEXT NOT NULL,
  last_attempt_at TEXT,
  completed_at TEXT,
  UNIQUE (webhook_id, event_id),
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at);

-- Every attempt with what the endpoint answered: rows are never edited.
CREATE TABLE webhook_delivery_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id),
  attempt INTEGER NOT NULL CHECK (attempt >= 1),
  started_at TEXT NOT NULL,
  duration_ms INTEGER NOT NULL CHECK (duration_ms >= 0),
  status_code INTEGER CHECK (status_code IS NULL OR status_code BETWEEN 100 AND 999),
  response_excerpt TEXT CHECK (response_excerpt IS NULL OR length(response_excerpt) <= 1024),
  error TEXT CHECK (error IS NULL OR length(error) <= 500),
  succeeded INTEGER NOT NULL CHECK (succeeded IN (0, 1))
);
CREATE INDEX webhook_delivery_attempts_delivery ON webhook_delivery_attempts (delivery_id, seq);
