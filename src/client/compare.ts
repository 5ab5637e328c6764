// The Compare page's glue: the first view comes drawn from the build
// (data/compare-summary.json, src/client/compare-summary.ts); every other
// choice is posted, as a small request, to a Web Worker
// (src/client/compare-worker.ts) that reads the benchmark's rows and runs
// the CLI's library, so no row ever reaches the page's thread. arquero
// reshapes the comparison for the forest plot.

import {aq} from "./arquero.js";
import {sampleFlags} from "../lib/compare-small.js";
import type {CompareBenchmark, Comparison} from "../lib/compare.js";
import {rowsFileKey, type CompareRequest, type PageComparison} from "./compare-summary.js";
import type {WorkerAnswer, WorkerAsk} from "./compare-worker.js";

export interface CompareWorker {
  /** The comparison the request asks for; `onProgress` hears the worker's notes until it resolves. */
  compare(request: CompareRequest, onProgress: (text: string) => void): Promise<PageComparison>;
  terminate(): void;
}

/** Starts the page's worker; `urls` gives each rows file by rowsFileKey (a benchmark, or HSII under another win policy). */
export function startCompareWorker(urls: Readonly<Record<CompareBenchmark, string> & Record<string, string>>): CompareWorker {
  const worker = new Worker(import.meta.resolve("./compare-worker.js"), {type: "module"});
  const pending = new Map<number, {resolve: (c: PageComparison) => void; reject: (e: Error) => void; progress: (text: string) => void}>();
  let next = 0;
  worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
    const answer = event.data;
    const call = pending.get(answer.id);
    if (!call) return;
    if (answer.type === "progress") return call.progress(answer.text);
    pending.delete(answer.id);
    if (answer.type === "result") call.resolve(answer.comparison);
    else call.reject(new Error(answer.message));
  };
  worker.onerror = (e) => {
    for (const call of pending.values()) call.reject(new Error(e.message || "the compare worker failed"));
    pending.clear();
  };
  return {
    compare(request, onProgress) {
      const id = ++next;
      const file = urls[rowsFileKey(request)];
      if (file === undefined) return Promise.reject(new Error(`no rows file for ${rowsFileKey(request)}; rebuild the site`));
      const url = new URL(file, document.baseURI).href;
      return new Promise<PageComparison>((resolve, reject) => {
        pending.set(id, {resolve, reject, progress: onProgress});
        worker.postMessage({id, request, url} satisfies WorkerAsk);
      });
    },
    terminate: () => worker.terminate(),
  };
}

/** The forest plot's rows: one per metric with its difference and interval, and whether its adjusted p is below 0.05. */
export function forestRows(c: Comparison, interval: "t" | "bootstrap"): {metric: string; difference: number; lo: number; hi: number; significant: string}[] {
  // An interval on df ≤ 2 is not drawn (src/lib/compare-small.ts): its point stays, its ends are NaN, which the plot skips.
  const weak = new Set(c.metrics.filter((m) => sampleFlags(m).weak).map((m) => m.metric));
  return aq.from(c.metrics.map((m) => (weak.has(m.metric) ? {...m, lo: NaN, hi: NaN, bootLo: NaN, bootHi: NaN, weak: true} : {...m, weak: false})))
    .params({boot: interval === "bootstrap"})
    .derive({
      lo: (d: {lo: number; bootLo: number}, $: {boot: boolean}) => ($.boot ? d.bootLo : d.lo),
      hi: (d: {hi: number; bootHi: number}, $: {boot: boolean}) => ($.boot ? d.bootHi : d.hi),
      significant: (d: {pAdjusted: number}) => (d.pAdjusted < 0.05 ? "adjusted p < 0.05" : "adjusted p ≥ 0.05"),
    })
    .select("metric", "difference", "lo", "hi", "significant")
    .filter(aq.escape((d: {lo: number; hi: number; metric: string}) => weak.has(d.metric) || (Number.isFinite(d.lo) && Number.isFinite(d.hi))))
    .objects() as {metric: string; difference: number; lo: number; hi: number; significant: string}[];
}
