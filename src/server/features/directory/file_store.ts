/**
 * An edition's files in the database: each file's SHA-256 and size over its plain bytes (what the
 * manifest states and a downloader checks), and its gzip stream cut into pieces of at most
 * CHUNK_BYTES, so that no row is large and a download streams piece by piece on any node.
 */
import { createHash, type Hash } from "node:crypto";
import { createGzip, type Gzip } from "node:zlib";
import { once } from "node:events";
import { statementsOf, type Tx } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";

/** Pieces of a stored file's gzip stream: small enough for one replication frame each. */
export const CHUNK_BYTES = 1024 * 1024;
/** Text is encoded and fed to the hash and the compressor in runs of about this many characters. */
const FLUSH_CHARACTERS = 256 * 1024;
/** Level 6 (zlib's default) trades little speed for much smaller files of padded fixed-width lines. */
const GZIP_LEVEL = 6;

export interface StoredFileFacts {
  name: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
}

/** A file being written: text in, hashed and compressed as it comes. */
export class FileBuilder {
  readonly name: string;
  readonly contentType: string;
  #hash: Hash = createHash("sha256");
  #size = 0;
  #gzip: Gzip = createGzip({ level: GZIP_LEVEL });
  #compressed: Uint8Array[] = [];
  #pending: string[] = [];
  #pendingLength = 0;
  #encoder = new TextEncoder();

  constructor(name: string, contentType: string) {
    this.name = name;
    this.contentType = contentType;
    this.#gzip.on("data", (piece: Uint8Array) => this.#compressed.push(piece));
  }

  async write(text: string): Promise<void> {
    this.#pending.push(text);
    this.#pendingLength += text.length;
    if (this.#pendingLength >= FLUSH_CHARACTERS) await this.#flush();
  }

  async #flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const bytes = this.#encoder.encode(this.#pending.join(""));
    this.#pending = [];
    this.#pendingLength = 0;
    this.#hash.update(bytes);
    this.#size += bytes.length;
    if (!this.#gzip.write(bytes)) await once(this.#gzip, "drain");
  }

  /** Ends the file: its facts, and its gzip stream in CHUNK_BYTES pieces. */
  async finish(): Promise<{ facts: StoredFileFacts; chunks: Uint8Array[] }> {
    await this.#flush();
    const ended = once(this.#gzip, "end");
    this.#gzip.end();
    await ended;
    const facts = {
      name: this.name,
      contentType: this.contentType,
      sizeBytes: this.#size,
      sha256: this.#hash.digest("hex"),
    };
    return { facts, chunks: cut(this.#compressed) };
  }
}

function cut(pieces: Uint8Array[]): Uint8Array[] {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const whole = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    whole.set(piece, offset);
    offset += piece.length;
  }
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < total || chunks.length === 0; start += CHUNK_BYTES) {
    chunks.push(whole.subarray(start, Math.min(total, start + CHUNK_BYTES)));
  }
  return chunks;
}

/** Writes a finished file's row and pieces (the edition row comes last: triggers close it then). */
export async function storeFile(
  tx: Tx,
  editionNumber: number,
  file: { facts: StoredFileFacts; chunks: Uint8Array[] },
): Promise<void> {
  const statements = statementsOf(tx);
  const { facts } = file;
  await statements.run(
    `INSERT INTO directory_edition_files (edition_number, name, content_type, size_bytes, sha256) VALUES (?, ?, ?, ?, ?)`,
    [editionNumber, facts.name, facts.contentType, facts.sizeBytes, facts.sha256],
  );
  for (const [seq, chunk] of file.chunks.entries()) {
    await statements.run(
      `INSERT INTO directory_file_chunks (edition_number, name, seq, data) VALUES (?, ?, ?, ?)`,
      [editionNumber, facts.name, seq, chunk],
    );
  }
}

export async function storedFileFacts(
  statements: Statements,
  editionNumber: number,
  name: string,
): Promise<StoredFileFacts | undefined> {
  return await statements.get<StoredFileFacts & Record<string, unknown>>(
    `SELECT name, content_type AS contentType, size_bytes AS sizeBytes, sha256
      FROM directory_edition_files WHERE edition_number = ? AND name = ?`,
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

/** A stored file's whole text (the previous edition's full file, read back to compare with). */
export async function storedFileText(
  statements: Statements,
  editionNumber: number,
  name: string,
): Promise<string> {
  return await new Response(storedFileStream(statements, editionNumber, name)).text();
}
