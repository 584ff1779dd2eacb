/**
 * Effective dating of registry records (docs/directory.md): when a change may take effect, and which
 * version of a record is in force at an instant. Pure: the server keeps the versions, this decides.
 *
 * @module
 */

/** A change may be scheduled at most this far ahead: two years covers an announced merger or closure. */
export const MAX_EFFECTIVE_AHEAD_DAYS = 731;
const DAY_MS = 86_400_000;

export const EFFECTIVE_TOO_FAR =
  `The effective date may be at most ${MAX_EFFECTIVE_AHEAD_DAYS} days ahead`;

/** The instant a change takes effect: now when none is given or it lies in the past; null when too far ahead. */
export function effectiveInstant(requested: string | null | undefined, nowMs: number): string | null {
  if (requested === null || requested === undefined) return new Date(nowMs).toISOString();
  const at = Date.parse(requested);
  if (at > nowMs + MAX_EFFECTIVE_AHEAD_DAYS * DAY_MS) return null;
  return new Date(Math.max(at, nowMs)).toISOString();
}

export interface TimedVersion {
  validFrom: string;
  /** Order among versions with the same validFrom: the later-recorded one wins. */
  seq: number;
}

/** The version in force at `at` (ISO instant): the latest validFrom at or before it, else undefined. */
export function versionInForce<V extends TimedVersion>(versions: readonly V[], at: string): V | undefined {
  let best: V | undefined;
  for (const version of versions) {
    if (version.validFrom > at) continue;
    if (!best || version.validFrom > best.validFrom || (version.validFrom === best.validFrom && version.seq > best.seq)) {
      best = version;
    }
  }
  return best;
}

/**
 * Each version's whole record, folding its changes over the record in force just before it, in
 * (validFrom, seq) order. A change scheduled before others already scheduled changes what they carry.
 */
export function foldVersions<R extends Record<string, unknown>>(
  base: R,
  versions: readonly (TimedVersion & { changes: Partial<R> })[],
): R[] {
  const ordered = [...versions].sort((a, b) => compareVersions(a, b));
  let current = base;
  return ordered.map((version) => current = { ...current, ...version.changes });
}

export function compareVersions(a: TimedVersion, b: TimedVersion): number {
  if (a.validFrom !== b.validFrom) return a.validFrom < b.validFrom ? -1 : 1;
  return a.seq - b.seq;
}

/** A date-time or a plain date ("2027-03-01" means its start, UTC) as an ISO instant; null if neither. */
export function parseInstant(text: string): string | null {
  const value = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00.000Z` : text;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
