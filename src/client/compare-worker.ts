// The Compare page's worker: every comparison but the first view runs here,
// off the page's thread. From the benchmark's pack (data/compare-rows-
// <benchmark>.bin, src/client/compare-pack.ts) it fetches, by range requests,
// only the blocks on side A or B, decodes their integer codes into typed
// arrays (src/client/compare-coded.ts), keeps them while the sides need them,
// and per request picks the sides' rows, pairs them on the codes and tests
// and bootstraps them with the CLI's library.
//
// Protocol: page → worker {id, request, url}; worker → page
// {id, type: "progress", text} any number, then {id, type: "result", comparison}
// or {id, type: "error", message}. Requests run one at a time, in order; one
// that a newer request overtook while it waited is answered "superseded" unrun.

import {compareCoded} from "./compare-coded.js";
import {openComparePack, type ComparePack} from "./compare-pack.js";
import {forPage, type CompareRequest, type PageComparison} from "./compare-summary.js";
import {initParquetOnce} from "./parquet.js";

export interface WorkerAsk {
  id: number;
  request: CompareRequest;
  /** The benchmark's rows pack. */
  url: string;
}

export type WorkerAnswer =
  | {id: number; type: "progress"; text: string}
  | {id: number; type: "result"; comparison: PageComparison}
  | {id: number; type: "error"; message: string};

/** The last benchmark's pack: another comparison of it fetches only the blocks it lacks; one of another benchmark replaces it. */
let opened: {url: string; pack: Promise<ComparePack>} | null = null;

function packOf(url: string): Promise<ComparePack> {
  if (opened?.url !== url) {
    const pack = Promise.all([openComparePack(url), initParquetOnce()]).then(([p]) => p);
    pack.catch(() => {
      if (opened?.pack === pack) opened = null;
    });
    opened = {url, pack};
  }
  return opened.pack;
}

let queue: Promise<void> = Promise.resolve();
/** The newest request's id: the page asks again only when its choice changed, so an older request still waiting is moot. */
let newest = 0;

self.onmessage = (event: MessageEvent<WorkerAsk>) => {
  const {id, request, url} = event.data;
  newest = Math.max(newest, id);
  const post = (answer: WorkerAnswer) => self.postMessage(answer);
  queue = queue.then(async () => {
    if (id < newest) return post({id, type: "error", message: "superseded by a newer choice"});
    try {
      const say = (text: string) => post({id, type: "progress", text: `In a background worker: ${text}`});
      say("Reading the rows file's index…");
      const rows = await (await packOf(url)).rowsFor(request.a, request.b, say);
      const comparison = forPage(compareCoded(request.benchmark, rows, request.a, request.b, {...request.options, onStep: say}));
      post({id, type: "result", comparison});
    } catch (e) {
      post({id, type: "error", message: e instanceof Error ? e.message : String(e)});
    }
  });
};
