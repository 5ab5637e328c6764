// The Compare page's worker: every comparison but the first view runs here,
// off the page's thread. It fetches the one benchmark's rows file
// (data/compare-rows-<benchmark>.parquet) once, keeps its bytes, and per
// request decodes it one row group at a time, turning into rows only those on
// side A or B, then pairs, tests and bootstraps them with the CLI's library
// (src/lib/compare.ts compareRuns).
//
// Protocol: page → worker {id, request, url}; worker → page
// {id, type: "progress", text} any number, then {id, type: "result", comparison}
// or {id, type: "error", message}. Requests run one at a time, in order; one
// that a newer request overtook while it waited is answered "superseded" unrun.

import {tableFromIPC} from "@uwdata/flechette";
import {ParquetFile} from "parquet-wasm/esm";
import {compareRuns, onSide, type CompareRow} from "../lib/compare.js";
import {DEFAULT_RESAMPLES} from "../lib/resample.js";
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

const COLUMNS = ["episode_id", "task", "instance", "cluster", "metric", "kind", "value", "model", "rater", "run", "source", "setting", "memory", "cot"] as const;

/** The fetched files' bytes by URL: a later comparison of the same benchmark fetches nothing. */
const fetched = new Map<string, Promise<Blob>>();

function bytesOf(url: string): Promise<Blob> {
  let bytes = fetched.get(url);
  if (!bytes) {
    bytes = fetch(url).then((response) => {
      if (!response.ok) throw new Error(`cannot load ${url}: ${response.status} ${response.statusText}`);
      return response.blob();
    });
    bytes.catch(() => fetched.delete(url));
    fetched.set(url, bytes);
  }
  return bytes;
}

/** The rows of the file on side A or B, in file order (the CLI's), decoded one row group at a time. */
async function sideRows(url: string, {a, b}: CompareRequest, say: (text: string) => void): Promise<CompareRow[]> {
  await initParquetOnce();
  const file = await ParquetFile.fromFile(await bytesOf(url));
  const metadata = file.metadata();
  const groups = metadata.rowGroups();
  const total = metadata.fileMetadata().numRows();
  const out: CompareRow[] = [];
  let read = 0;
  try {
    for (let g = 0; g < groups.length; g++) {
      const table = tableFromIPC((await file.read({rowGroups: [g]})).intoIPCStream());
      const columns = COLUMNS.map((name) => {
        const column = table.getChild(name);
        if (!column) throw new Error(`${url} has no column ${name}: rebuild the site`);
        return column;
      });
      const row = {} as Record<string, unknown>;
      for (let i = 0; i < table.numRows; i++) {
        // The side keys are read first: a row on neither side costs seven cells, not fourteen.
        for (let c = 7; c < COLUMNS.length; c++) row[COLUMNS[c]] = columns[c].at(i) ?? null;
        if (!onSide(row as unknown as CompareRow, a) && !onSide(row as unknown as CompareRow, b)) continue;
        const kept = {} as Record<string, unknown>;
        for (let c = 0; c < COLUMNS.length; c++) kept[COLUMNS[c]] = c < 7 ? columns[c].at(i) : row[COLUMNS[c]];
        out.push(kept as unknown as CompareRow);
      }
      read += table.numRows;
      say(`Reading the rows in a background worker: ${read.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} (${out.length.toLocaleString("en-US")} on side A or B)…`);
    }
    return out;
  } finally {
    for (const group of groups) group.free();
    metadata.free();
    file.free();
  }
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
      const rows = await sideRows(url, request, (text) => post({id, type: "progress", text}));
      post({id, type: "progress", text: `Pairing ${rows.length.toLocaleString("en-US")} rows, testing and bootstrapping (${(request.options.resamples ?? DEFAULT_RESAMPLES).toLocaleString("en-US")} resamples) in a background worker…`});
      const comparison = forPage(compareRuns(request.benchmark, rows, request.a, request.b, request.options));
      post({id, type: "result", comparison});
    } catch (e) {
      post({id, type: "error", message: e instanceof Error ? e.message : String(e)});
    }
  });
};
