// Reading source files: fingerprints, and lines decoded as strict UTF-8.

import {createHash, type Hash} from "node:crypto";
import {createReadStream, statSync} from "node:fs";
import {RecordProblem} from "./errors.js";

export const newSha256 = (): Hash => createHash("sha256");

/** sha256 of a file's bytes, streamed. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, {highWaterMark: 1 << 20})) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export function fileSize(path: string): number {
  return statSync(path).size;
}

export interface Line {
  /** 1-based line number. */
  number: number;
  /** The decoded text, or the problem that kept it from decoding. */
  text: string | RecordProblem;
  /** Bytes consumed so far, for progress. */
  bytesRead: number;
}

const decoder = new TextDecoder("utf-8", {fatal: true});

function decode(bytes: Uint8Array): string | RecordProblem {
  try {
    return decoder.decode(bytes);
  } catch {
    return new RecordProblem(null, "the line is not valid UTF-8 (is the file in another encoding?)");
  }
}

/**
 * The file's lines (without their line breaks), decoded one at a time so memory
 * stays flat. Every byte read is also fed to `hash` when one is given, so a
 * fingerprint costs no second pass over the file.
 */
export async function* readLines(path: string, hash?: Hash): AsyncGenerator<Line> {
  let pending: Buffer | null = null;
  let number = 0;
  let bytesRead = 0;
  for await (const raw of createReadStream(path, {highWaterMark: 1 << 22})) {
    const chunk = raw as Buffer;
    hash?.update(chunk);
    bytesRead += chunk.length;
    let start = 0;
    let nl = chunk.indexOf(10);
    if (pending) {
      // Only the line that straddles the chunk boundary is copied.
      if (nl === -1) {
        pending = Buffer.concat([pending, chunk]);
        continue;
      }
      const line = Buffer.concat([pending, chunk.subarray(0, nl)]);
      pending = null;
      yield {number: ++number, text: decode(stripCr(line)), bytesRead};
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    while (nl !== -1) {
      yield {number: ++number, text: decode(stripCr(chunk.subarray(start, nl))), bytesRead};
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) pending = Buffer.from(chunk.subarray(start));
  }
  if (pending && pending.length) yield {number: ++number, text: decode(stripCr(pending)), bytesRead};
}

const stripCr = (b: Buffer): Buffer => (b.length && b[b.length - 1] === 13 ? b.subarray(0, b.length - 1) : b);

/** A whole (small) file as strict UTF-8 text. */
export function decodeWhole(bytes: Uint8Array): string | RecordProblem {
  return decode(bytes);
}
