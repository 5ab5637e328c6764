// Reading source files: fingerprints, and lines decoded as strict UTF-8.

import {isUtf8} from "node:buffer";
import {createHash} from "node:crypto";
import {createReadStream, readSync, statSync} from "node:fs";
import {RecordProblem} from "./errors.js";
import type {ReadItem} from "./records.js";
import {READ_CHUNK_BYTES, SourceFile} from "./source-file.js";
import {parseJson, type Json} from "./validate.js";

/** sha256 of a file's bytes, streamed: only to tell, before reading, whether it is already imported. */
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

/**
 * Strict UTF-8, a leading byte-order mark dropped (as TextDecoder does).
 * isUtf8 and toString accept and refuse the same bytes as a fatal TextDecoder,
 * a little cheaper (6.8 against 7.5 µs of CPU a 31 KB dump line, warmed up).
 */
function decode(bytes: Uint8Array): string | RecordProblem {
  if (!isUtf8(bytes)) return new RecordProblem(null, "the line is not valid UTF-8 (is the file in another encoding?)");
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return b.toString("utf8", b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0);
}


/**
 * The file's lines (without their line breaks), decoded one at a time so memory
 * stays flat. Reads are synchronous: an import has nothing else to do meanwhile,
 * and waiting on the thread pool for each chunk left the parser idle. Each
 * chunk goes to the source's fingerprint once its lines are decoded.
 */
export function* readLines(from: SourceFile | string): Generator<Line> {
  const source = typeof from === "string" ? SourceFile.untracked(from) : from;
  try {
    let pending: Buffer | null = null;
    let number = 0;
    let bytesRead = 0;
    for (;;) {
      const chunk = source.readBuffer();
      const got = readSync(source.fd, chunk, 0, chunk.length, bytesRead);
      if (got === 0) break;
      const data = chunk.subarray(0, got);
      const at = bytesRead;
      bytesRead += got;
      let start = 0;
      let nl = data.indexOf(10);
      if (pending) {
        // Only the line that straddles the chunk boundary is copied.
        if (nl === -1) {
          pending = Buffer.concat([pending, data]);
          source.give(data, at);
          continue;
        }
        const line = Buffer.concat([pending, data.subarray(0, nl)]);
        pending = null;
        yield {number: ++number, text: decode(stripCr(line)), bytesRead};
        start = nl + 1;
        nl = data.indexOf(10, start);
      }
      while (nl !== -1) {
        yield {number: ++number, text: decode(stripCr(data.subarray(start, nl))), bytesRead};
        start = nl + 1;
        nl = data.indexOf(10, start);
      }
      if (start < data.length) pending = Buffer.from(data.subarray(start));
      source.give(data, at);
    }
    if (pending && pending.length) yield {number: ++number, text: decode(stripCr(pending)), bytesRead};
  } finally {
    if (typeof from === "string") source.close();
  }
}

const stripCr = (b: Buffer): Buffer => (b.length && b[b.length - 1] === 13 ? b.subarray(0, b.length - 1) : b);

/**
 * A whole file that is not UTF-8: the line (1-based, counting the line feeds
 * before it) and the byte offset (0-based, from the file's first byte, a
 * byte-order mark included) where its first ill-formed sequence starts.
 */
export class NotUtf8 extends RecordProblem {
  constructor(readonly line: number, readonly offset: number, byte: number) {
    super(null, `not valid UTF-8: byte 0x${byte.toString(16).toUpperCase().padStart(2, "0")} at byte offset ${offset} of the file (counting from 0) begins no valid character (is the file in another encoding?)`);
  }
}

/**
 * Where the first ill-formed sequence of `b` starts (Unicode's table 3-7 of
 * well-formed byte sequences), or -1. Only run once isUtf8 has said no, so a
 * valid file never pays for this byte-at-a-time walk.
 */
function firstIllFormed(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let trail: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) trail = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      trail = 2;
      if (c === 0xe0) lo = 0xa0; // overlong below U+0800
      else if (c === 0xed) hi = 0x9f; // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      trail = 3;
      if (c === 0xf0) lo = 0x90; // overlong below U+10000
      else if (c === 0xf4) hi = 0x8f; // past U+10FFFF
    } else return i;
    for (let k = 1; k <= trail; k++) {
      const d = b[i + k];
      if (d === undefined || d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += trail + 1;
  }
  return -1;
}

/** A whole (small) file as strict UTF-8 text, or where it stops being UTF-8. */
export function decodeWhole(bytes: Uint8Array): string | NotUtf8 {
  const text = decode(bytes);
  if (!(text instanceof RecordProblem)) return text;
  const offset = firstIllFormed(bytes);
  let line = 1;
  for (let nl = bytes.indexOf(10); nl !== -1 && nl < offset; nl = bytes.indexOf(10, nl + 1)) line++;
  return new NotUtf8(line, offset, bytes[offset]!);
}

/**
 * A whole (small) JSON file: its text and document, or, when it is not UTF-8
 * or not JSON, the reject that the import reports for it (at the line of the
 * first bad byte, or at line 1 for JSON that does not parse).
 */
export function readJsonDocument(source: SourceFile): {text: string; doc: Json} | Extract<ReadItem, {kind: "reject"}> {
  const text = decodeWhole(source.readAll());
  if (text instanceof NotUtf8) return {kind: "reject", line: text.line, field: null, problem: text.problem, raw: ""};
  try {
    return {text, doc: parseJson(text)};
  } catch (e) {
    if (!(e instanceof RecordProblem)) throw e;
    return {kind: "reject", line: 1, field: e.field, problem: e.problem, raw: text.slice(0, 2000)};
  }
}

/**
 * One JSONL line as a record: an undecodable line, invalid JSON or any
 * RecordProblem that `toItem` throws becomes a reject naming the line; a blank
 * line is nothing, and so is a record `toItem` took in itself (returning null).
 */
export function jsonlItem(number: number, text: string | RecordProblem, toItem: (doc: Json, line: number) => ReadItem | null): ReadItem | null {
  if (text instanceof RecordProblem) return {kind: "reject", line: number, field: null, problem: text.problem, raw: ""};
  if (!text.trim()) return null;
  try {
    return toItem(parseJson(text), number);
  } catch (e) {
    if (!(e instanceof RecordProblem)) throw e;
    return {kind: "reject", line: number, field: e.field, problem: e.problem, raw: text};
  }
}

/** Reads a JSONL file record by record (see jsonlItem). */
export function* readJsonl(from: SourceFile | string, onProgress: (bytesRead: number) => void, toItem: (doc: Json, line: number) => ReadItem): Generator<ReadItem> {
  for (const {number, text, bytesRead} of readLines(from)) {
    onProgress(bytesRead);
    const item = jsonlItem(number, text, toItem);
    if (item) yield item;
  }
}

/** Bytes a read past a segment's end takes at a time: a dump line is about 30 KB. */
const PAST_END_READ_BYTES = 1 << 16;

/**
 * The lines that start in bytes [start, end) of an open file, numbered from 1
 * within the segment; the last one may run past `end`. Segments that tile a file
 * see every line exactly once, so workers can each read some and the lines be
 * numbered afterwards by adding up the segments' counts. Same decoding as readLines.
 * `give` receives the bytes of those lines (their own buffers, to keep), in
 * order and each once: over all segments, the whole file exactly once.
 * `readBuffer` gives the buffer each read goes into (no longer used here
 * once given away, so it may be one given away before).
 */
export function* readSegmentLines(
  fd: number, start: number, end: number, give: (bytes: Buffer, at: number) => void = () => {},
  readBuffer: () => Buffer = () => Buffer.allocUnsafeSlow(READ_CHUNK_BYTES),
): Generator<{number: number; text: string | RecordProblem; offset: number}> {
  let pos = start;
  if (start > 0) {
    // A line starts at `start` only if the byte before ends a line; otherwise the first line here starts after the next line break.
    // These bytes belong to the line before: the segment that holds it hashes them.
    const probe = Buffer.allocUnsafe(1 << 16);
    for (pos = start - 1; ; ) {
      const got = readSync(fd, probe, 0, probe.length, pos);
      if (got === 0) return;
      const nl = probe.subarray(0, got).indexOf(10);
      if (nl !== -1) {
        pos += nl + 1;
        break;
      }
      pos += got;
    }
  }
  let number = 0;
  let pending: Buffer | null = null;
  while (pos < end || pending) {
    const chunk = readBuffer();
    // Past the segment's end only the rest of its last line is wanted, and the next segment reads those bytes again:
    // a whole chunk there read 12 MiB for each 8 MiB segment.
    const got = readSync(fd, chunk, 0, pos < end ? chunk.length : Math.min(chunk.length, PAST_END_READ_BYTES), pos);
    if (got === 0) break;
    const data = chunk.subarray(0, got);
    const base = pos;
    pos += got;
    let from = 0;
    let nl = data.indexOf(10);
    if (pending) {
      if (nl === -1) {
        pending = Buffer.concat([pending, data]);
        give(data, base);
        continue;
      }
      const line = Buffer.concat([pending, data.subarray(0, nl)]);
      pending = null;
      yield {number: ++number, text: decode(stripCr(line)), offset: base + nl + 1};
      from = nl + 1;
      nl = data.indexOf(10, from);
    }
    // Only lines that start before `end` are this segment's.
    while (nl !== -1 && base + from < end) {
      yield {number: ++number, text: decode(stripCr(data.subarray(from, nl))), offset: base + nl + 1};
      from = nl + 1;
      nl = data.indexOf(10, from);
    }
    if (base + from >= end) {
      give(data.subarray(0, from), base);
      return;
    }
    if (from < data.length) pending = Buffer.from(data.subarray(from));
    give(data, base);
  }
  if (pending && pending.length) yield {number: ++number, text: decode(stripCr(pending)), offset: pos};
}
