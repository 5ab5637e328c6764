// Data and glue for the agreement page's "Reliability" section: the score
// rows and scenarios from DuckDB-wasm, the options as the page's inputs give
// them, and the bootstrap run in a Web Worker (src/client/reliability-worker.ts)
// so the page stays responsive while 1,000 resamples run.

import {HUMANS, type RaterScore} from "../lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../lib/dimensions.js";
import {reliabilityReport, type ReliabilityOptions, type ReliabilityReport} from "../lib/reliability.js";
import type {Database} from "./duckdb.js";

export interface ReliabilityData {
  rows: RaterScore[];
  scenarioOf: Map<string, string | null>;
  /** LLM raters on episodes a human annotator also scored, most scores first: the judge panel's choices. */
  llmRaters: string[];
}

/** Reads the agreement rows in the CLI's order (loaders/queries/agreement.ts) and each episode's scenario. */
export async function loadReliabilityData(db: Database): Promise<ReliabilityData> {
  const rows = await db.query<RaterScore>("SELECT episode_id, agent, dimension, rater, rater_kind, value, lo, hi, played_by FROM agreement_rows ORDER BY episode_id, agent, dimension, rater");
  const scenarios = await db.query<{episode_id: string; scenario_id: string | null}>("SELECT episode_id, scenario_id FROM episode_scenarios");
  const annotated = new Set<string>();
  for (const r of rows) if (r.rater_kind === "human") annotated.add(r.episode_id);
  const counts = new Map<string, number>();
  for (const r of rows) if (r.rater_kind === "llm" && annotated.has(r.episode_id)) counts.set(r.rater, (counts.get(r.rater) ?? 0) + 1);
  const llmRaters = Array.from(counts.entries()).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([rater]) => rater);
  return {rows, scenarioOf: new Map(scenarios.map((s) => [s.episode_id, s.scenario_id])), llmRaters};
}

/** The page's options, as its inputs hold them. */
export type PageReliabilityOptions = Omit<ReliabilityOptions, "dimensions" | "against" | "scenarioOf" | "onProgress">;

export interface ReliabilityRun {
  /** Resolves with the report; rejects with the worker's error. */
  report: Promise<ReliabilityReport>;
  /** Stops the worker (the page calls it when an option changes before the run ends). */
  cancel(): void;
}

/**
 * Runs the reliability table in a module worker, reporting progress; where
 * the browser has no Worker, on the main thread (the same function either way).
 */
export function runReliability(data: ReliabilityData, options: PageReliabilityOptions, onProgress: (done: number, total: number) => void): ReliabilityRun {
  const full: Omit<ReliabilityOptions, "onProgress"> = {...options, against: HUMANS, dimensions: SOTOPIA_DIMENSIONS.map((d) => ({key: d.key, lo: d.lo, hi: d.hi})),
    scenarioOf: options.cluster ? data.scenarioOf : undefined};
  if (typeof Worker === "undefined") {
    return {report: Promise.resolve().then(() => reliabilityReport(data.rows, {...full, onProgress})), cancel: () => {}};
  }
  const worker = new Worker(import.meta.resolve("./reliability-worker.js"), {type: "module"});
  const report = new Promise<ReliabilityReport>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<{kind: string; done: number; total: number; report: ReliabilityReport; message: string}>) => {
      const m = event.data;
      if (m.kind === "progress") onProgress(m.done, m.total);
      else {
        worker.terminate();
        if (m.kind === "report") resolve(m.report);
        else reject(new Error(m.message));
      }
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(e.message || "the reliability worker failed"));
    };
  });
  worker.postMessage({rows: data.rows, options: full});
  return {report, cancel: () => worker.terminate()};
}

/** The progress note under the options: how far the bootstrap is. */
export function progressText(done: number, total: number): string {
  return done >= total
    ? `Bootstrap done: ${total.toLocaleString("en-US")} statistic resamples.`
    : `Bootstrap running in a background worker: ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} statistic resamples (${Math.floor((100 * done) / total)}%).`;
}
