/**
 * Bounds for caller-supplied JSON documents (connection details, credentials). Pure module.
 *
 * The depth check walks iteratively: a document nested thousands deep must be refused, not crash
 * the recursive JSON.stringify that measuring its size would run.
 *
 * @module
 */

/** True when `value` has containers (objects or arrays) nested more than `maxDepth` levels. */
export function exceedsJsonDepth(value: unknown, maxDepth: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth > maxDepth) return true;
    for (const inner of Object.values(current)) pending.push([inner, depth + 1]);
  }
  return false;
}

/** UTF-8 size of the document's JSON text; call only after {@linkcode exceedsJsonDepth} passed. */
export function jsonByteLength(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).byteLength;
}
