// Reading source files: fingerprints, and lines decoded as strict UTF-8.

import {createHash} from "node:crypto";
import {createReadStream, statSync} from "node:fs";
import {RecordProblem} from "./errors.js";

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

/** The file's lines (without their line breaks), decoded one at a time so memory stays flat. */
export async function* readLines(path: string): AsyncGenerator<Line> {
  let pending: Buffer | null = null;
  let number = 0;
  let bytesRead = 0;
  for await (const raw of createReadStream(path, {highWaterMark: 1 << 22})) {
    let chunk = raw as Buffer;
    bytesRead += chunk.length;
    if (pending) {
      chunk = Buffer.concat([pending, chunk]);
      pending = null;
    }
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(10, start)) !== -1) {
      const end = nl > start && chunk[nl - 1] === 13 ? nl - 1 : nl;
      yield {number: ++number, text: decode(chunk.subarray(start, end)), bytesRead};
      start = nl + 1;
    }
    if (start < chunk.length) pending = Buffer.from(chunk.subarray(start));
  }
  if (pending && pending.length) yield {number: ++number, text: decode(pending), bytesRead};
}

/** A whole (small) file as strict UTF-8 text. */
export function decodeWhole(bytes: Uint8Array): string | RecordProblem {
  return decode(bytes);
}
