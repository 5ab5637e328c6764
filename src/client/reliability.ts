// Data and glue for the agreement page's "Reliability" section. The score
// rows never reach the page's main thread: a Web Worker
// (src/client/reliability-worker.ts) fetches and decodes them, runs the CLI's
// reliabilityReport with the page's options and posts progress, then the
// report and the Bland–Altman pairs of the first judge. The page itself holds
// only the judge panel's choices (data/reliability-raters.json), so the
// section costs the page the same at 100 or 1M episodes.

import {HUMANS, pairInstances, type RaterScore} from "../lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../lib/dimensions.js";
import {reliabilityReport, type ReliabilityOptions, type ReliabilityReport} from "../lib/reliability.js";
import {readParquetRows} from "./parquet.js";

/** One LLM rater of the agreement rows, as data/reliability-raters.json lists it. */
export interface RaterCount {
  rater: string;
  /** Its scores on episodes a human annotator also scored. */
  on_annotated: number;
  /** Its scores in all. */
  total: number;
}

/**
 * The judge panel's choices (LLM raters on episodes a human also scored, most
 * such scores first, then by name) and the starting judge (the LLM rater with
 * the most scores, ties by name: lib/agreement.ts defaultJudge), falling back
 * to the first choice when that rater met no human.
 */
export function judgeChoices(raters: readonly RaterCount[]): {llmRaters: string[]; firstJudge: string | undefined} {
  const llmRaters = raters.filter((r) => r.on_annotated > 0)
    .sort((x, y) => y.on_annotated - x.on_annotated || (x.rater < y.rater ? -1 : 1)).map((r) => r.rater);
  const busiest = raters.slice().sort((x, y) => y.total - x.total || x.rater.localeCompare(y.rater))[0]?.rater;
  return {llmRaters, firstJudge: busiest !== undefined && llmRaters.includes(busiest) ? busiest : llmRaters[0]};
}

/** Where the worker reads its rows: the page's FileAttachment URLs. */
export interface ReliabilitySources {
  rows: string;
  scenarios: string;
}

/** The page's options, as its inputs hold them. */
export type PageReliabilityOptions = Omit<ReliabilityOptions, "dimensions" | "against" | "scenarioOf" | "onProgress">;

/** Each dimension's paired scores of the chart's judge (A) and the mean of the human annotators (B). */
export type BlandAltmanPairs = Record<string, {a: Float64Array; b: Float64Array}>;

export interface ReliabilityResult {
  report: ReliabilityReport;
  pairs: BlandAltmanPairs;
}

/** What the worker is asked. */
export interface ReliabilityRequest {
  sources: ReliabilitySources;
  options: PageReliabilityOptions;
  /** The judge whose Bland–Altman charts the page draws, if any. */
  chartJudge: string | undefined;
}

/** Reads the agreement rows in the CLI's order (the loader orders them by episode, agent, dimension, rater) and each episode's scenario. */
async function readSources(sources: ReliabilitySources): Promise<{rows: RaterScore[]; scenarioOf: Map<string, string | null>}> {
  const [raw, scenarios] = await Promise.all([readParquetRows(sources.rows), readParquetRows(sources.scenarios)]);
  const rows = raw.map((r): RaterScore => ({
    episode_id: r.episode_id as string, agent: r.agent as number, dimension: r.dimension as string, rater: r.rater as string,
    rater_kind: r.rater_kind as string, value: r.value as number, lo: r.lo as number, hi: r.hi as number, played_by: r.played_by as string
  }) as RaterScore);
  return {rows, scenarioOf: new Map(scenarios.map((s) => [s.episode_id as string, s.scenario_id as string | null]))};
}

/** The whole computation, wherever it runs: in the worker, or on the main thread where there is no Worker. */
export async function computeReliability(request: ReliabilityRequest, onProgress: (done: number, total: number) => void, onStage: (text: string) => void = () => {}): Promise<ReliabilityResult> {
  onStage("Reading the score rows in the background worker…");
  const {rows, scenarioOf} = await readSources(request.sources);
  const report = reliabilityReport(rows, {
    ...request.options, against: HUMANS, dimensions: SOTOPIA_DIMENSIONS.map((d) => ({key: d.key, lo: d.lo, hi: d.hi})),
    scenarioOf: request.options.cluster ? scenarioOf : undefined, onProgress
  });
  const pairs: BlandAltmanPairs = {};
  if (request.chartJudge !== undefined) {
    const paired = pairInstances(rows, {rater: request.chartJudge}, HUMANS);
    const counts = new Map<string, number>();
    for (const i of paired) counts.set(i.dimension, (counts.get(i.dimension) ?? 0) + 1);
    for (const [dimension, n] of counts) pairs[dimension] = {a: new Float64Array(n), b: new Float64Array(n)};
    const filled = new Map<string, number>();
    for (const i of paired) {
      const k = filled.get(i.dimension) ?? 0;
      pairs[i.dimension].a[k] = i.judge;
      pairs[i.dimension].b[k] = i.other;
      filled.set(i.dimension, k + 1);
    }
  }
  return {report, pairs};
}

export interface ReliabilityRun {
  /** Resolves with the report and chart pairs; rejects with the worker's error. */
  result: Promise<ReliabilityResult>;
  /** Stops the worker (the page calls it when an option changes before the run ends). */
  cancel(): void;
}

type WorkerMessage =
  | {kind: "progress"; done: number; total: number}
  | {kind: "stage"; text: string}
  | {kind: "result"; result: ReliabilityResult}
  | {kind: "error"; message: string};

/** Runs the reliability table in a module worker, reporting the stage and progress; on the main thread where there is no Worker. */
export function runReliability(request: ReliabilityRequest, onProgress: (done: number, total: number) => void, onStage: (text: string) => void): ReliabilityRun {
  if (typeof Worker === "undefined") return {result: computeReliability(request, onProgress, onStage), cancel: () => {}};
  const worker = new Worker(import.meta.resolve("./reliability-worker.js"), {type: "module"});
  const result = new Promise<ReliabilityResult>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const m = event.data;
      if (m.kind === "progress") onProgress(m.done, m.total);
      else if (m.kind === "stage") onStage(m.text);
      else {
        worker.terminate();
        if (m.kind === "result") resolve(m.result);
        else reject(new Error(m.message));
      }
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(e.message || "the reliability worker failed"));
    };
  });
  worker.postMessage(request);
  return {result, cancel: () => worker.terminate()};
}

/**
 * How near the view the section must come to start its first run: a screen
 * above and below, so its numbers are on their way before the reader gets there.
 */
export const DUE_MARGIN = "100% 0px";

/** What the section says while its first run waits (reliabilityDue). */
export const WAITING_TEXT = "Waiting to start: the point estimates are computed in a background worker once the agreement worker above has computed the choices next to yours, or as soon as you scroll here.";

/**
 * When the section's first run may start: once `section` comes within
 * DUE_MARGIN of the view, or once `idle` settles (the agreement worker has
 * nothing left to compute ahead), whichever is first; at once where there is
 * no IntersectionObserver. The run reads every score row into objects (5.3M
 * at 100k episodes, seconds of CPU): started with the page, it took a core
 * from the agreement worker just when a reader's first change of rater needs it.
 */
export function reliabilityDue(section: Element, idle: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    if (typeof IntersectionObserver === "undefined") return resolve();
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) due();
    }, {rootMargin: DUE_MARGIN});
    const due = () => {
      observer.disconnect();
      resolve();
    };
    observer.observe(section);
    idle.then(due, due);
  });
}

/**
 * The options of the first run, which the page makes at once: the point
 * estimates only (one resample, whose interval the page does not show; no
 * clustering, which changes intervals only). The bootstrap waits for a click,
 * as at 100k episodes it takes minutes of CPU that the rest of the page needs.
 */
export function pointOptions(options: PageReliabilityOptions): PageReliabilityOptions {
  return {...options, resamples: 1, method: "percentile", cluster: false};
}

/** Seconds per resample per scored item (judge rows' n plus annotator rows' items), from the reliability benchmark: 45 ms per resample at 100k items a side. */
const SECONDS_PER_RESAMPLED_ITEM = 0.23e-6;

/**
 * About how long the bootstrap of `resamples` takes for what this report
 * covers, in whole seconds (at least 1): the click's label. The bootstrap's
 * worker first reads the rows and computes the point estimates again, which
 * took `pointSeconds` on this page (minutes at 100k episodes, more than the
 * resampling itself), then resamples.
 */
export function bootstrapSeconds(report: ReliabilityReport, resamples: number, pointSeconds: number): number {
  let items = 0;
  for (const j of report.judges) items += j.n;
  for (const a of report.annotators) items += a.items;
  return Math.max(1, Math.round(pointSeconds + items * resamples * SECONDS_PER_RESAMPLED_ITEM));
}

/** The progress note under the options: how far the bootstrap is. */
export function progressText(done: number, total: number): string {
  return done >= total
    ? `Bootstrap done: ${total.toLocaleString("en-US")} statistic resamples.`
    : `Bootstrap running in a background worker: ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} statistic resamples (${Math.floor((100 * done) / total)}%).`;
}
