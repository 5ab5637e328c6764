// The STSS page's simulation runs, in one pack of Arrow IPC streams
// (first-view-pack.ts): the same query as their Parquet loader. They grow with
// the benchmark's runs, so the page fetches them after its first view, for
// the logged scores against the rules. Every table over conversations is in
// the first-view pack for every choice (stss-first-view.bin.ts), so the
// conversation rows are not shipped to the page.

import {STSS_RUNS_SQL} from "../../loaders/queries/stss.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  stss_runs: STSS_RUNS_SQL,
});
