/**
 * How many times this process rebuilt its replica after the primary diverged (local_replica.ts).
 * Caches that compare a counter read from the database (change epochs, search versions) also
 * compare this: a restored primary counts again from an older value, and the same count would
 * otherwise name different rows.
 */
let generation = 0;

export function replicaGeneration(): number {
  return generation;
}

export function advanceReplicaGeneration(): void {
  generation++;
}
