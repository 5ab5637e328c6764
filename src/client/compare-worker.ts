// The Compare page's worker: every comparison but the first view runs here,
// off the page's thread. It fetches the one benchmark's rows file
// (data/compare-rows-<benchmark>.parquet), decodes its integer codes into
// typed arrays once (src/client/compare-coded.ts), keeps the last
// benchmark's, and per request picks the sides' rows, pairs them on the
// codes and tests and bootstraps them with the CLI's library.
//
// Protocol: page → worker {id, request, url}; worker → page
// {id, type: "progress", text} any number, then {id, type: "result", comparison}
// or {id, type: "error", message}. Requests run one at a time, in order; one
// that a newer request overtook while it waited is answered "superseded" unrun.

import {ParquetFile} from "parquet-wasm/esm";
import {compareCoded, readCodedRows, type CodedRows} from "./compare-coded.js";
import {forPage, type CompareRequest, type PageComparison} from "./compare-summary.js";
import {initParquetOnce} from "./parquet.js";

export interface WorkerAsk {
  id: number;
  request: CompareRequest;
  /** The benchmark's rows file. */
  url: string;
}

export type WorkerAnswer =
  | {id: number; type: "progress"; text: string}
  | {id: number; type: "result"; comparison: PageComparison}
  | {id: number; type: "error"; message: string};

/** The last benchmark's decoded rows: another comparison of it decodes nothing; one of another benchmark replaces them (one set in memory). */
let decoded: {url: string; rows: Promise<CodedRows>} | null = null;

async function fetchAndDecode(url: string, say: (text: string) => void): Promise<CodedRows> {
  say("Fetching the rows…");
  const [response] = await Promise.all([fetch(url), initParquetOnce()]);
  if (!response.ok) throw new Error(`cannot load ${url}: ${response.status} ${response.statusText}`);
  const file = await ParquetFile.fromFile(await response.blob());
  try {
    return await readCodedRows(file, url, say);
  } finally {
    file.free();
  }
}

function codedRows(url: string, say: (text: string) => void): Promise<CodedRows> {
  if (decoded?.url !== url) {
    const rows = fetchAndDecode(url, say);
    rows.catch(() => {
      if (decoded?.rows === rows) decoded = null;
    });
    decoded = {url, rows};
  }
  return decoded.rows;
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
      const rows = await codedRows(url, say);
      const comparison = forPage(compareCoded(request.benchmark, rows, request.a, request.b, {...request.options, onStep: say}));
      post({id, type: "result", comparison});
    } catch (e) {
      post({id, type: "error", message: e instanceof Error ? e.message : String(e)});
    }
  });
};
