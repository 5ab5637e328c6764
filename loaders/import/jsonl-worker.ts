// The worker-thread half of reading a JSONL file in parallel (see
// jsonl-workers.ts): reads its share of the file's segments, turns lines into
// records with the format's own function, and posts them as column batches.
// Runs only inside a worker started by readJsonlInWorkers.

import {closeSync, openSync} from "node:fs";
import {parentPort, receiveMessageOnPort, workerData} from "node:worker_threads";
import {BatchBuilder, transferables} from "./batch.js";
import {jsonlItem, readSegmentLines} from "./files.js";
import {READ_CHUNK_BYTES} from "./source-file.js";
import type {ReadItem} from "./records.js";
import type {Json} from "./validate.js";

/** What readJsonlInWorkers tells each worker. */
export interface SegmentWork {
  path: string;
  size: number;
  segmentBytes: number;
  /** This worker's index. */
  slot: number;
  /** [0]: the next segment nobody has claimed yet; workers and the main thread take segments from it in order. */
  claims: SharedArrayBuffer;
  /** Messages posted and not yet taken by the main thread, one counter per worker (index `slot`). */
  inFlight: SharedArrayBuffer;
  maxInFlight: number;
  /** A batch is posted once its text reaches this many characters. */
  batchChars: number;
}

/** Messages from a worker, in file order within each segment. */
export type SegmentMessage = {slot: number; segment: number} & (
  | {type: "batch"; batch: import("./batch.js").EpisodeBatch}
  | {type: "item"; item: ReadItem}
  /** Bytes the segment's lines were parsed from, starting at offset `at`, for the file's fingerprint. */
  | {type: "bytes"; at: number; bytes: Uint8Array}
  | {type: "end"; lines: number; bytes: number}
);

/**
 * Claims segments until none is left, turning each document into a record
 * with `toItem`, or, where the format has one, writing it straight into the
 * batch with `intoBatch` (false: not a record it writes that way).
 */
export function serveSegments(
  toItem: (doc: Json, line: number) => ReadItem,
  intoBatch?: (doc: Json, line: number, batch: BatchBuilder) => boolean,
): void {
  const port = parentPort;
  if (!port) throw new Error("serveSegments runs in a worker thread");
  const work = workerData as SegmentWork;
  const inFlight = new Int32Array(work.inFlight);
  const claims = new Int32Array(work.claims);
  const {slot} = work;
  const segments = Math.ceil(work.size / work.segmentBytes);
  const post = (message: SegmentMessage, transfer: ArrayBuffer[] = []) => {
    // Wait while the main thread is behind, so batches never pile up in memory.
    for (let n = Atomics.load(inFlight, slot); n >= work.maxInFlight; n = Atomics.load(inFlight, slot)) Atomics.wait(inFlight, slot, n);
    Atomics.add(inFlight, slot, 1);
    port.postMessage(message, transfer);
  };
  // The reader hands back buffers the hash thread has finished with (see SourceFile.readBuffer): read into those first.
  const readBuffer = (): Buffer => {
    const spare = receiveMessageOnPort(port)?.message as ArrayBuffer | undefined;
    return spare ? Buffer.from(spare) : Buffer.allocUnsafeSlow(READ_CHUNK_BYTES);
  };
  const fd = openSync(work.path, "r");
  try {
    for (let segment = Atomics.add(claims, 0, 1); segment < segments; segment = Atomics.add(claims, 0, 1)) {
      const start = segment * work.segmentBytes;
      const end = Math.min(work.size, start + work.segmentBytes);
      const builder = new BatchBuilder();
      const send = (bytes: number) => {
        const batch = builder.take(bytes);
        post({type: "batch", slot, segment, batch}, transferables(batch));
      };
      let lines = 0;
      let reached = end; // the segment's last line may run past its end
      const give = (bytes: Buffer, at: number) => post({type: "bytes", slot, segment, at, bytes}, [bytes.buffer as ArrayBuffer]);
      // null: the episode is in the batch already.
      const read = intoBatch ? (doc: Json, line: number) => (intoBatch(doc, line, builder) ? null : toItem(doc, line)) : toItem;
      for (const {number, text, offset} of readSegmentLines(fd, start, end, give, readBuffer)) {
        lines = number;
        reached = Math.max(reached, offset);
        const item = jsonlItem(number, text, read);
        if (!item) {
          if (builder.chars >= work.batchChars) send(offset);
          continue;
        }
        if (item.kind === "episode") {
          builder.add(item.episode, number);
          if (builder.chars >= work.batchChars) send(offset);
        } else {
          // Rejects (and anything else) keep their place between episodes.
          if (builder.count) send(offset);
          post({type: "item", slot, segment, item});
        }
      }
      if (builder.count) send(reached);
      post({type: "end", slot, segment, lines, bytes: reached});
    }
  } finally {
    closeSync(fd);
  }
}
