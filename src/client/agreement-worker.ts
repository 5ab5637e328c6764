// The agreement page's worker: reads every instance row once
// (data/agreement-rows.parquet) and computes views over them off the page's
// thread, so an input event only posts a message and draws the reply.
//
// Protocol (structured-clone messages; one reply stream per request id):
//   page → worker  {id, job, params}                 run the job named `job`
//   worker → page  {id, type: "progress", done, total, what}   any number, optional
//                  {id, type: "result", value}       once, ends the job
//                  {id, type: "error", message}      once, ends the job
//                  {type: "ahead", key, value, done, total}   a view computed ahead (no request),
//                                                    and how many of the current options' neighbours are ready
//                  {type: "warmed"}                  once: the engine's code is warmed (below)
// Jobs run one at a time, in the order they arrive; between jobs, while no
// request waits, the worker computes ahead for the last view's neighbours
// (AgreementEngine.prefetchStep; right after the first, the sides of the raters
// next in the menus, then an annotator as A, as likelyChanges says), one small step per turn (a request waits
// for one step, not a whole view), and posts each view it finishes as "ahead"
// (under viewKey of its options), so the page holds it before it is asked
// for and a change to it needs no round trip, even while the worker is busy. `load` comes first (the
// page sends it when it starts the worker); every other job waits for it and
// gets its failure as its own error. The jobs are the entries of JOBS: to host
// another computation (a Reliability section, say), add an entry whose
// function takes its params and a JobContext (progress, and the loaded rows
// as columns and as an AgreementEngine) and returns a structured-cloneable value.
// Before the first step ahead, on a large store, the worker warms the engine's
// code (agreement-warm.ts: the likely changes over a small slice, one view per
// turn), so that a change not computed ahead yet runs compiled code; a request
// that comes meanwhile goes first, as it does before a step ahead.

import {tableFromIPC} from "apache-arrow";
import initParquet, {ParquetFile} from "parquet-wasm/esm";
import {SOTOPIA_DIMENSIONS} from "../lib/dimensions.js";
import {columnsFromCodes, type AgreementColumns, type CodedScores} from "./agreement-columns.js";
import {AgreementEngine, STEP, viewKey, type AgreementView, type ViewOptions} from "./agreement-engine.js";
import {WARM_ABOVE, WARM_INSTANCES, warmUpSteps} from "./agreement-warm.js";

export interface WorkerRequest {
  id: number;
  job: string;
  params: unknown;
}

export type WorkerReply =
  | {id: number; type: "progress"; done: number; total: number; what: string}
  | {id: number; type: "result"; value: unknown}
  | {id: number; type: "error"; message: string}
  | {type: "ahead"; key: string; value: AgreementView | null; done: number; total: number}
  | {type: "warmed"};

export interface JobContext {
  progress(done: number, total: number, what: string): void;
  /** The loaded rows; rejects with the load's error. */
  loaded(): Promise<{columns: AgreementColumns; engine: AgreementEngine}>;
}

/** What the page sends with `load`: the rows file and the summary's dictionaries, which the file's codes index. */
export interface LoadParams {
  url: string;
  raters: string[];
  dimensions: AgreementColumns["dimensions"];
  /** Score rows the summary counted: the file must hold as many. */
  rows: number;
  /** Options to compute once loaded, so the first change finds the annotators' scores and the judge's ready. */
  warm?: ViewOptions;
}

type Job = (params: never, context: JobContext) => unknown;

const CODED_COLUMNS: (keyof CodedScores)[] = ["instance", "episode", "dimension_code", "played_human", "rater_code", "human", "value"];
const FILE = "agreement-rows.parquet";

let loading: Promise<{columns: AgreementColumns; engine: AgreementEngine}> | null = null;

/** Reads the rows file one row group at a time (OFFLINE.md: whole-file decoding fails on large files) into columns. */
async function load({url, raters, dimensions, rows, warm}: LoadParams, context: JobContext): Promise<{rows: number; instances: number}> {
  loading = (async () => {
    await initParquet({module_or_path: import.meta.resolve("parquet-wasm/esm/parquet_wasm_bg.wasm")});
    const response = await fetch(url);
    if (!response.ok) throw new Error(`cannot load ${FILE}: ${response.status} ${response.statusText}`);
    const file = await ParquetFile.fromFile(await response.blob());
    const metadata = file.metadata();
    const groups = metadata.rowGroups();
    try {
      const inFile = metadata.fileMetadata().numRows();
      if (inFile !== rows) throw new Error(`${FILE} holds ${inFile} rows where agreement-summary.json counted ${rows}: the two files come from different stores; rebuild the site`);
      const coded = {
        instance: new Int32Array(rows), episode: new Int32Array(rows), dimension_code: new Int32Array(rows), played_human: new Uint8Array(rows),
        rater_code: new Int32Array(rows), human: new Uint8Array(rows), value: new Float64Array(rows),
      } satisfies CodedScores;
      let offset = 0;
      for (const [i, group] of groups.entries()) {
        const table = tableFromIPC((await file.read({rowGroups: [i], columns: CODED_COLUMNS})).intoIPCStream());
        for (const name of CODED_COLUMNS) {
          const vector = table.getChild(name);
          if (!vector) throw new Error(`${FILE} has no column ${name}: rebuild the site`);
          const target = coded[name];
          let at = offset;
          for (const chunk of vector.data) {
            const values = chunk.values as ArrayLike<number>;
            for (let j = 0; j < chunk.length; j++) target[at++] = values[j]!;
          }
        }
        offset += group.numRows();
        context.progress(offset, rows, "reading instance rows");
      }
      return columnsFromCodes(coded, raters, dimensions, FILE);
    } finally {
      for (const group of groups) group.free();
      metadata.free();
      file.free();
    }
  })().then((columns) => ({columns, engine: new AgreementEngine(columns, SOTOPIA_DIMENSIONS.map((d) => d.key))}));
  return started(warm);
}

/** Serves these columns as if `load` had read them: for tests, which have no rows file. */
export function useColumns(columns: AgreementColumns, warm?: ViewOptions, engine = new AgreementEngine(columns, SOTOPIA_DIMENSIONS.map((d) => d.key))): Promise<{rows: number; instances: number}> {
  loading = Promise.resolve({columns, engine});
  return started(warm);
}

/** The end of `load`: the starting view and kappa among every annotator computed, what the page is told. */
async function started(warm: ViewOptions | undefined): Promise<{rows: number; instances: number}> {
  const {columns, engine} = await loading!;
  if (warm) {
    engine.view(warm);
    // The longest part of any annotator's view as A, the same for all of them (one light pass): ready before the first change.
    engine.countAnnotatorsKappa(warm.bins);
  }
  return {rows: columns.value.length, instances: columns.rowStart.length - 1};
}

/** The jobs, by name (see the protocol above). */
export const JOBS: Record<string, Job> = {
  load: load as Job,
  view: (async (options: ViewOptions, context: JobContext) => (await context.loaded()).engine.view(options)) as Job,
  // The page answered a change from the views it holds: the worker only learns whose neighbours to compute next.
  focus: (() => null) as Job,
};

/**
 * How long the worker waits after the page's request before computing ahead
 * again: the page is drawing the change then, and on two busy cores a worker
 * computing at full speed takes the time the drawing needs.
 */
export const PAUSE_AFTER_REQUEST_MS = 250;

/** How the worker warms up: on stores of more than `above` instances, over a slice of `instances` (tests take small ones). */
export interface WarmSettings {
  above: number;
  instances: number;
}

/**
 * Runs requests one after another, answering each by its id; when idle,
 * warms the engine's code (once, on a large store), then computes ahead.
 */
export function serve(
  scope: {postMessage(message: WorkerReply): void; onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null},
  jobs: Record<string, Job> = JOBS,
  warmSettings: WarmSettings = {above: WARM_ABOVE, instances: WARM_INSTANCES},
): void {
  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  let ahead: ViewOptions | null = null;
  // The warm-up's steps once the rows are loaded; null when done or not worth it.
  let warming: Generator<void, void> | null | undefined;
  // One pending step at a time: a request's end and the last step both schedule the next one.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(computeAhead, ms);
  };
  const computeAhead = async () => {
    if (waiting > 0 || ahead === null || loading === null) return;
    const {columns, engine} = await loading;
    // A request that came in meanwhile goes first; the next step waits for the next idle moment.
    if (waiting > 0 || ahead === null) return;
    if (warming === undefined) {
      const large = columns.rowStart.length - 1 > warmSettings.above;
      warming = large ? warmUpSteps(columns, engine.dimensionKeys, ahead, warmSettings.instances) : null;
    }
    if (warming !== null) {
      if (warming.next().done) {
        warming = null;
        scope.postMessage({type: "warmed"});
      }
      return schedule(0);
    }
    const options = ahead;
    const next = engine.prefetchStep(options, engine.likelyChanges(options));
    // A step toward a view: the next turn goes on with it, after any message that came meanwhile.
    if (next === STEP) return schedule(0);
    const neighbours = engine.neighbours(options);
    let done = 0;
    for (const n of neighbours) if (engine.ready(n)) done++;
    scope.postMessage({type: "ahead", key: next === null ? "" : viewKey(next), value: next === null ? null : engine.view(next), done, total: neighbours.length});
    if (next !== null) schedule(0);
  };
  scope.onmessage = ({data: {id, job, params}}) => {
    waiting++;
    const context: JobContext = {
      progress: (done, total, what) => scope.postMessage({id, type: "progress", done, total, what}),
      loaded: () => loading ?? Promise.reject(new Error("no rows loaded: the page sends `load` first")),
    };
    queue = queue.then(async () => {
      try {
        const run = jobs[job];
        if (!run) throw new Error(`no job named ${JSON.stringify(job)}; known: ${Object.keys(jobs).join(", ")}`);
        const value = await run(params as never, context);
        if (job === "view" || job === "focus") ahead = params as ViewOptions;
        if (job === "load") ahead = (params as LoadParams).warm ?? null;
        scope.postMessage({id, type: "result", value});
      } catch (e) {
        scope.postMessage({id, type: "error", message: e instanceof Error ? e.message : String(e)});
      } finally {
        waiting--;
        schedule(job === "load" ? 0 : PAUSE_AFTER_REQUEST_MS);
      }
    });
  };
}

// Only inside a worker: tests import JOBS in Node, where there is no worker scope.
const workerScope = (globalThis as {WorkerGlobalScope?: abstract new () => unknown}).WorkerGlobalScope;
if (workerScope && globalThis instanceof workerScope) serve(globalThis as never);
