import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import {
  CHUNK_BYTES,
  FILE_BUFFER_BYTES,
  FileBuilder,
} from "../../src/server/features/directory/file_store.ts";

Deno.test("a file written over many buffers is stored as pieces whose gzip gives back its bytes, hash and size", async () => {
  const pieces: { seq: number; chunk: Uint8Array }[] = [];
  const builder = new FileBuilder("full.txt", "text/plain; charset=utf-8", (_name, seq, chunks) => {
    chunks.forEach((chunk, index) => pieces.push({ seq: seq + index, chunk: chunk.slice() }));
    return Promise.resolve();
  });
  const encoder = new TextEncoder();
  let expected = "header\r\n";
  await builder.writeText("header\r\n");
  // Lines that do not compress away (a counter and its hash), so that there are several pieces.
  for (let line = 0; expected.length < 6 * FILE_BUFFER_BYTES + CHUNK_BYTES; line++) {
    const text = `${line} ${createHash("sha256").update(String(line)).digest("hex")} Zürich\r\n`;
    const bytes = encoder.encode(text);
    if (!builder.fits(bytes.length)) await builder.makeRoom(bytes.length);
    builder.put((target, offset) => (target.set(bytes, offset), offset + bytes.length));
    expected += text;
  }
  const long = "x".repeat(FILE_BUFFER_BYTES * 2) + "\r\n";
  await builder.writeText(long);
  expected += long;
  const facts = await builder.finish();
  const plain = encoder.encode(expected);
  assert.equal(facts.sizeBytes, plain.length);
  assert.equal(facts.sha256, createHash("sha256").update(plain).digest("hex"));
  assert.deepEqual(pieces.map((piece) => piece.seq), pieces.map((_, index) => index));
  assert.ok(pieces.length > 1, `${pieces.length} pieces`);
  assert.ok(pieces.every((piece) => piece.chunk.length <= CHUNK_BYTES));
  const gzip = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.chunk.length, 0));
  pieces.reduce((offset, piece) => (gzip.set(piece.chunk, offset), offset + piece.chunk.length), 0);
  assert.equal(new TextDecoder().decode(gunzipSync(gzip)), expected);
});
