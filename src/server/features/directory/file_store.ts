/**
 * An edition's files in the database: each file's SHA-256 and size over its plain bytes (what the
 * manifest states and a downloader checks), and its gzip stream cut into pieces of at most
 * CHUNK_BYTES, so that no row is large and a download streams piece by piece on any node. A file is
 * written as it is produced: hashed and compressed a buffer at a time, and its pieces handed on in
 * batches, so that no file is ever held whole.
 */
import { createHash, type Hash } from "node:crypto";
import { createGzip, type Gzip } from "node:zlib";
import { once } from "node:events";
import type { Statements } from "../../db/statements.ts";

/** Pieces of a stored file's gzip stream: small enough for one replication frame each. */
export const CHUNK_BYTES = 1024 * 1024;
/** Pieces handed on at a time (one transaction each): what a file holds in memory at most. */
export const CHUNKS_PER_BATCH = 1;
/** A file's bytes are gathered in a buffer of this size, then hashed and compressed at once. */
export const FILE_BUFFER_BYTES = 256 * 1024;
/** Room for the pieces of a batch and what one buffer compresses to beyond it (larger if ever needed). */
const COMPRESSED_BUFFER_BYTES = CHUNK_BYTES * CHUNKS_PER_BATCH + 2 * FILE_BUFFER_BYTES;
/**
 * zlib's fastest level: it compresses at several times the speed of the default, and the padded
 * fixed-width lines, which make most of an edition's bytes, still shrink many times over.
 */
const GZIP_LEVEL = 1;

export interface StoredFileFacts {
  name: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * Where a file's pieces go: `seq` is the first piece's number; the pieces are in order. They are views
 * of the builder's buffer, valid until the returned promise resolves.
 */
export type ChunkSink = (name: string, seq: number, chunks: Uint8Array[]) => Promise<void>;

/**
 * A file being written: bytes put straight into its buffer, hashed and compressed a buffer at a time,
 * its pieces out in batches. A writer checks `fits` before each `put`, and awaits `makeRoom` only
 * when the buffer is full, so that a line costs no turn of the event loop.
 */
export class FileBuilder {
  readonly name: string;
  readonly contentType: string;
  #sink: ChunkSink;
  #hash: Hash = createHash("sha256");
  #size = 0;
  #gzip: Gzip = createGzip({ level: GZIP_LEVEL });
  /** The compressed bytes not yet handed on: pieces are copied in as they come, so that each is garbage at once. */
  #compressed = new Uint8Array(COMPRESSED_BUFFER_BYTES);
  #compressedBytes = 0;
  #seq = 0;
  #buffer = new Uint8Array(FILE_BUFFER_BYTES);
  #offset = 0;

  constructor(name: string, contentType: string, sink: ChunkSink) {
    this.name = name;
    this.contentType = contentType;
    this.#sink = sink;
    this.#gzip.on("data", (piece: Uint8Array) => this.#keepCompressed(piece));
  }

  /** Whether `bytes` more fit in the buffer now. */
  fits(bytes: number): boolean {
    return this.#buffer.length - this.#offset >= bytes;
  }

  /** Hands the buffer on, so that `bytes` fit (a line longer than the whole buffer gets a larger one). */
  async makeRoom(bytes: number): Promise<void> {
    await this.#flush();
    if (this.#buffer.length < bytes) this.#buffer = new Uint8Array(bytes);
  }

  /** `write` puts bytes into the buffer, which has room for them, and answers the offset after them; answers those bytes. */
  put(write: (target: Uint8Array, offset: number) => number): Uint8Array {
    const start = this.#offset;
    this.#offset = write(this.#buffer, start);
    return this.#buffer.subarray(start, this.#offset);
  }

  /** Copies bytes into the buffer, which has room for them. */
  putBytes(bytes: Uint8Array): void {
    this.#buffer.set(bytes, this.#offset);
    this.#offset += bytes.length;
  }

  async writeText(text: string): Promise<void> {
    const bytes = encoder.encode(text);
    if (!this.fits(bytes.length)) await this.makeRoom(bytes.length);
    this.putBytes(bytes);
  }

  async #flush(): Promise<void> {
    if (this.#offset > 0) {
      const bytes = this.#buffer.subarray(0, this.#offset);
      this.#hash.update(bytes);
      this.#size += bytes.length;
      // The buffer is written again only once the compressor has taken these bytes.
      await new Promise<void>((resolve, reject) =>
        this.#gzip.write(bytes, (error) => error ? reject(error) : resolve())
      );
      this.#offset = 0;
    }
    if (this.#compressedBytes >= CHUNK_BYTES * CHUNKS_PER_BATCH) await this.#handOn(false);
  }

  #keepCompressed(piece: Uint8Array): void {
    const needed = this.#compressedBytes + piece.length;
    if (needed > this.#compressed.length) {
      const larger = new Uint8Array(Math.max(needed, this.#compressed.length * 2));
      larger.set(this.#compressed.subarray(0, this.#compressedBytes));
      this.#compressed = larger;
    }
    this.#compressed.set(piece, this.#compressedBytes);
    this.#compressedBytes = needed;
  }

  /**
   * Hands on the whole pieces compressed so far (and the last, shorter one when `last`). The sink
   * stores them before it resolves; the rest moves to the front of the buffer afterwards.
   */
  async #handOn(last: boolean): Promise<void> {
    const whole = this.#compressed.subarray(0, this.#compressedBytes);
    const keep = last ? 0 : whole.length % CHUNK_BYTES;
    const chunks: Uint8Array[] = [];
    for (let start = 0; start < whole.length - keep; start += CHUNK_BYTES) {
      chunks.push(whole.subarray(start, Math.min(whole.length - keep, start + CHUNK_BYTES)));
    }
    // An empty file still has one (empty) piece, so that a download always finds its first one.
    if (last && this.#seq === 0 && chunks.length === 0) chunks.push(new Uint8Array(0));
    if (chunks.length > 0) {
      await this.#sink(this.name, this.#seq, chunks);
      this.#seq += chunks.length;
    }
    this.#compressed.copyWithin(0, whole.length - keep, whole.length);
    this.#compressedBytes = keep;
  }

  /** Ends the file: its last pieces handed on, and its facts. */
  async finish(): Promise<StoredFileFacts> {
    await this.#flush();
    const ended = once(this.#gzip, "end");
    this.#gzip.end();
    await ended;
    await this.#handOn(true);
    return {
      name: this.name,
      contentType: this.contentType,
      sizeBytes: this.#size,
      sha256: this.#hash.digest("hex"),
    };
  }
}

const encoder = new TextEncoder();

/** Writes pieces of a file of an edition still being built (its edition row comes last). */
export async function storeChunks(
  statements: Statements,
  editionNumber: number,
  name: string,
  seq: number,
  chunks: Uint8Array[],
): Promise<void> {
  for (const [index, chunk] of chunks.entries()) {
    await statements.run(
      `INSERT INTO directory_file_chunks (edition_number, name, seq, data) VALUES (?, ?, ?, ?)`,
      [editionNumber, name, seq + index, chunk],
    );
  }
}

/** Writes a finished file's row: with the edition row, in the publication's last transaction. */
export async function storeFileFacts(statements: Statements, editionNumber: number, facts: StoredFileFacts) {
  await statements.run(
    `INSERT INTO directory_edition_files (edition_number, name, content_type, size_bytes, sha256) VALUES (?, ?, ?, ?, ?)`,
    [editionNumber, facts.name, facts.contentType, facts.sizeBytes, facts.sha256],
  );
}

/** Pieces of builds that never became an edition, removed at most this many per transaction. */
const ORPHAN_DELETE_BATCH = 16;

/**
 * Removes, one bounded transaction at a time, the pieces of interrupted builds: those of numbers no
 * edition has. Answers whether any were left (call again until it answers false).
 */
export async function removeOrphanChunks(statements: Statements): Promise<boolean> {
  const removed = await statements.run(
    `DELETE FROM directory_file_chunks WHERE rowid IN (
      SELECT rowid FROM directory_file_chunks
      WHERE edition_number > (SELECT coalesce(max(number), 0) FROM directory_editions) LIMIT ?)`,
    [ORPHAN_DELETE_BATCH],
  );
  return removed === ORPHAN_DELETE_BATCH;
}

export async function storedFileFacts(
  statements: Statements,
  editionNumber: number,
  name: string,
): Promise<StoredFileFacts | undefined> {
  return await statements.get<StoredFileFacts & Record<string, unknown>>(
    `SELECT name, content_type AS contentType, size_bytes AS sizeBytes, sha256
      FROM directory_edition_files f
      WHERE edition_number = ? AND name = ? AND EXISTS (SELECT 1 FROM directory_editions e WHERE e.number = f.edition_number)`,
    [editionNumber, name],
  );
}

/** A stored file's plain bytes as a stream, reading one piece at a time. */
export function storedFileStream(
  statements: Statements,
  editionNumber: number,
  name: string,
): ReadableStream<Uint8Array> {
  let seq = 0;
  const compressed = new ReadableStream<BufferSource>({
    async pull(controller) {
      const row = await statements.get<{ data: ArrayBuffer | Uint8Array }>(
        `SELECT data FROM directory_file_chunks WHERE edition_number = ? AND name = ? AND seq = ?`,
        [editionNumber, name, seq++],
      );
      if (row) controller.enqueue(new Uint8Array(row.data));
      else controller.close();
    },
  });
  return compressed.pipeThrough<Uint8Array>(new DecompressionStream("gzip"));
}
