-- National routing registry: central_bank_code is unique, yet the console sends one fixed code.
-- The server keeps one counter per 3-letter issuer prefix and assigns PREFIX + 3-digit sequence
-- (CBR001 … CBR999); a prefix whose counter reached 999 accepts no more entries.
CREATE TABLE central_bank_code_sequences (
  prefix TEXT PRIMARY KEY NOT NULL CHECK (length(prefix) = 3 AND prefix GLOB '[A-Z][A-Z][A-Z]'),
  last_value INTEGER NOT NULL CHECK (last_value BETWEEN 0 AND 999),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
