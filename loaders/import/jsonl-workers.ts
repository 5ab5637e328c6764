// Reading a large JSONL file on several threads. The file is cut into
// segments; worker threads claim them in order, parse, validate and normalise
// them, and post column batches (batch.ts); this side takes them back in file
// order, makes line numbers absolute and yields them, so the import sees the
// same records, rejects and order as from a single-threaded reader while its
// own thread mostly appends.

import {createRequire} from "node:module";
import {fileURLToPath} from "node:url";
import {Worker} from "node:worker_threads";
import {BatchBuilder} from "./batch.js";
import type {SegmentMessage, SegmentWork} from "./jsonl-worker.js";
import {jsonlItem, readSegmentLines} from "./files.js";
import type {ReadItem} from "./records.js";
import type {SourceFile} from "./source-file.js";
import type {Json} from "./validate.js";

export interface WorkerPlan {
  workers: number;
  segmentBytes: number;
  /** Messages a worker may post ahead of the reader (bounds memory). */
  maxInFlight?: number;
  /**
   * A batch is posted once it holds this much text. A quarter of a million
   * characters (some 40 dump episodes) leaves the worker before its garbage
   * collector has to copy it to the old generation: about 8% less CPU for the
   * worker's own work (parse, records, batch, serialise) than a million. Four
   * times as many may be in flight: the same bytes.
   */
  batchChars?: number;
  /** How long the reading thread waits for the workers before it reads a segment ahead itself (default STEAL_AFTER_MS). */
  stealAfterMs?: number;
}

// Worker modules are TypeScript: a worker registers tsx's require hooks and
// requires the module (tsx compiles its ESM to CommonJS). Those in-thread hooks
// start faster than tsx's ESM loader, which runs on a thread of its own, and the
// tsx flags the main thread may have been started with are not passed on, so a
// worker never loads tsx twice.
const BOOT = `
const {workerData} = require("node:worker_threads");
if (workerData.tsx) require(workerData.tsx).register();
require(workerData.module);
`;

/** Segments the reading thread may hold read ahead of their turn. */
const MAX_AHEAD = 2;

/**
 * How long the reading thread waits for the workers before it reads a
 * segment ahead itself. Taking one whenever it had caught up with them for a
 * moment (a worker posts a batch every few milliseconds) left it parsing a
 * third of the file as well as appending every row, the import's one serial
 * part: at 100k, 10.5 CPU-s on this thread and 4.9 on the worker, against
 * 8.6 and 7.6 with this wait, and 1.8 CPU-s more in all (medians, alternating
 * runs at load 0.4–13; BENCHMARKS.md, import).
 */
const STEAL_AFTER_MS = 50;

/** A segment read on the reading thread: its items and bytes, kept until its turn (or what stopped the read). */
interface ReadHere {
  items: {item: ReadItem; offset: number}[];
  bytes: [Uint8Array, number][];
  lines: number;
  reached: number;
  failure: unknown;
}

/** Writes a dump line's rows straight into a batch (false: not a line it writes that way), as the worker module does. */
export type IntoBatch = (doc: Json, line: number, batch: BatchBuilder) => boolean;

/**
 * Reads and parses segment `segment` on this thread, as a worker would (into
 * batches with `intoBatch` where there is one, so these lines cost this
 * thread no more than a worker's), holding the result for its turn.
 */
function readHere(source: SourceFile, segment: number, segmentBytes: number, toItem: (doc: Json, line: number) => ReadItem, intoBatch?: IntoBatch): ReadHere {
  const end = Math.min(source.size, (segment + 1) * segmentBytes);
  const out: ReadHere = {items: [], bytes: [], lines: 0, reached: end, failure: null};
  const builder = new BatchBuilder();
  const flush = (offset: number) => {
    if (builder.count) out.items.push({item: {kind: "batch", batch: builder.take(offset)}, offset});
  };
  const read = intoBatch ? (doc: Json, line: number) => (intoBatch(doc, line, builder) ? null : toItem(doc, line)) : toItem;
  try {
    const give = (b: Buffer, at: number) => out.bytes.push([b, at]);
    for (const {number, text, offset} of readSegmentLines(source.fd, segment * segmentBytes, end, give, () => source.readBuffer())) {
      out.lines = number;
      out.reached = Math.max(out.reached, offset);
      const item = jsonlItem(number, text, read);
      if (!item) continue;
      // Rejects and records keep their place between the batch's episodes.
      flush(offset);
      out.items.push({item, offset});
    }
  } catch (e) {
    // Thrown at the segment's turn, after the items read before it, so an earlier bad line is still the one reported.
    out.failure = e;
  }
  flush(out.reached);
  return out;
}

/** tsx's CommonJS register API, by path. */
const tsxApi = (): string => createRequire(import.meta.url).resolve("tsx/cjs/api");

/** The main thread's flags, less those that load tsx. */
const workerFlags = (): string[] => {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if ((a === "--import" || a === "--require" || a === "-r" || a === "--loader") && /tsx/.test(argv[i + 1] ?? "")) i++;
    else if (!/^--(import|require|loader)=.*tsx/.test(a)) out.push(a);
  }
  return out;
};

/**
 * A worker running BOOT with the main thread's flags. Node refuses to start a
 * worker given a flag that belongs to the whole process (V8's own, such as
 * --max-old-space-size), and the refusal names them; they already hold for the
 * worker, so it starts again without them.
 */
function startWorker(execArgv: string[], workerData: unknown): Worker {
  try {
    return new Worker(BOOT, {eval: true, execArgv, workerData});
  } catch (e) {
    if ((e as {code?: string}).code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw e;
    const refused = (e as Error).message.replace(/^[^:]*: /, "").split(", ");
    const kept = execArgv.filter((flag) => !refused.includes(flag));
    if (kept.length === execArgv.length) throw e;
    return new Worker(BOOT, {eval: true, execArgv: kept, workerData});
  }
}

/**
 * The records of the JSONL file `source`, read by up to `plan.workers` threads
 * running `workerModule` (a module that calls serveSegments with the same
 * `toItem`). Before the first worker is up (starting one takes about a
 * tenth of a second) this thread reads its turn's segment itself, and once
 * the workers have kept it waiting STEAL_AFTER_MS (a worker slower than the
 * appends), the next segment nobody has taken, so on two cores it does not
 * sit idle while a worker parses. Progress reports bytes read, in order.
 *
 * The fingerprint: sha256 cannot be put together from hashes of parts, so the
 * workers post the very buffers they parsed (moved, not copied), and they go
 * to the source's hash thread in file order, as the segments are taken here.
 * Hashing the file again afterwards would be a second read, blind to what the
 * workers actually saw; this hashes exactly that, at the cost of passing
 * buffers on. A file that changed between two segments' reads shows as lines
 * that no longer meet (SourceFile.give refuses a gap or an overlap).
 */
export async function* readJsonlInWorkers(
  source: SourceFile,
  onProgress: (bytesRead: number) => void,
  workerModule: URL,
  toItem: (doc: Json, line: number) => ReadItem,
  plan: WorkerPlan,
  intoBatch?: IntoBatch,
): AsyncGenerator<ReadItem> {
  const {path, size} = source;
  const segments = Math.ceil(size / plan.segmentBytes);
  const count = Math.max(1, Math.min(plan.workers, segments));
  const claims = new SharedArrayBuffer(4);
  const inFlight = new SharedArrayBuffer(4 * count);
  const counters = new Int32Array(inFlight);
  const arrived = new Map<number, SegmentMessage[]>();
  let wake = () => {};
  let running = count;
  let failure: Error | null = null;
  const tsx = workerModule.pathname.endsWith(".ts") ? tsxApi() : null;
  const execArgv = workerFlags();
  const workers = Array.from({length: count}, (_, slot) => {
    const work: SegmentWork = {
      path, size, segmentBytes: plan.segmentBytes, slot, claims, inFlight,
      maxInFlight: plan.maxInFlight ?? 16, batchChars: plan.batchChars ?? 2 ** 18,
    };
    const worker = startWorker(execArgv, {...work, module: fileURLToPath(workerModule), tsx});
    worker.on("message", (m: SegmentMessage) => {
      const queue = arrived.get(m.segment);
      if (queue) queue.push(m);
      else arrived.set(m.segment, [m]);
      wake();
    });
    worker.on("error", (e) => {
      failure ??= e instanceof Error ? e : new Error(String(e));
      wake();
    });
    worker.on("exit", () => {
      running--;
      wake();
    });
    return worker;
  });

  /**
   * The next message about `segment`, from whichever worker claimed it, or
   * null once this thread did some work of its own instead: `readOwn` at
   * once (it returns false when it has none), `readAhead` only once it has
   * waited `stealAfter` for the workers.
   */
  const stealAfter = plan.stealAfterMs ?? STEAL_AFTER_MS;
  const take = async (segment: number, readOwn: () => boolean, readAhead: () => boolean): Promise<SegmentMessage | null> => {
    let waitingSince = -1;
    for (let drained = false; ; ) {
      const queue = arrived.get(segment);
      if (queue?.length) {
        const m = queue.shift()!;
        if (!queue.length) arrived.delete(segment);
        Atomics.sub(counters, m.slot, 1);
        Atomics.notify(counters, m.slot);
        return m;
      }
      if (failure) throw failure;
      if (readOwn()) return null;
      const now = performance.now();
      if (waitingSince < 0) waitingSince = now;
      else if (now - waitingSince >= stealAfter && readAhead()) return null;
      if (running === 0) {
        // Messages a worker posted just before it ended may still be on their way: one more turn of the event loop for them.
        if (drained) throw new Error(`reading ${path}: the workers stopped before sending segment ${segment}`);
        drained = true;
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, stealAfter);
      });
      clearTimeout(timer);
    }
  };

  // A line longer than a segment is reported by the segment it starts in: progress only ever moves forward.
  let shown = 0;
  const progress = (bytes: number) => {
    if (bytes > shown) onProgress((shown = bytes));
  };
  const claimed = new Int32Array(claims);
  /** Segments this thread read itself, ahead of their turn, while it waited for a worker. */
  const ahead = new Map<number, ReadHere>();
  /** Claims the next segment nobody has taken, if that is `segment` (any segment when -1), and reads it here. */
  const readNextHere = (segment: number): boolean => {
    const next = Atomics.load(claimed, 0);
    if (next >= segments || (segment !== -1 && next !== segment)) return false;
    if (Atomics.compareExchange(claimed, 0, next, next + 1) !== next) return false;
    ahead.set(next, readHere(source, next, plan.segmentBytes, toItem, intoBatch));
    return true;
  };
  try {
    let lineBase = 0;
    for (let segment = 0; segment < segments; segment++) {
      for (;;) {
        const here = ahead.get(segment);
        if (here) {
          ahead.delete(segment);
          for (const [bytes, at] of here.bytes) source.give(bytes, at);
          for (const {item, offset} of here.items) {
            progress(offset);
            if (item.kind === "batch") {
              const b = item.batch;
              for (let i = 0; i < b.count; i++) b.line[i] += lineBase;
              yield item;
            } else {
              yield "line" in item ? {...item, line: item.line + lineBase} : item;
            }
          }
          if (here.failure) throw here.failure;
          lineBase += here.lines;
          progress(here.reached);
          await new Promise((resolve) => setImmediate(resolve)); // lets the workers' messages in
          break;
        }
        // This thread reads a segment itself when it would otherwise wait: the turn's own segment if no worker
        // has taken it (before any is up), else, once the workers have kept it waiting, the next one nobody has
        // taken, up to MAX_AHEAD (bounds memory).
        const m = await take(segment, () => readNextHere(segment), () => ahead.size < MAX_AHEAD && readNextHere(-1));
        if (m === null) continue;
        if (m.type === "end") {
          lineBase += m.lines;
          progress(m.bytes);
          break;
        }
        if (m.type === "bytes") {
          source.give(m.bytes, m.at);
          // A buffer back for each one read, so the worker need not fault in fresh pages for the next.
          const spare = source.spareBuffer();
          if (spare) workers[m.slot].postMessage(spare, [spare]);
        } else if (m.type === "batch") {
          const b = m.batch;
          for (let i = 0; i < b.count; i++) b.line[i] += lineBase;
          progress(b.bytesRead);
          yield {kind: "batch", batch: b};
        } else {
          yield "line" in m.item ? {...m.item, line: m.item.line + lineBase} : m.item;
        }
      }
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
