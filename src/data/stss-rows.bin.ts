// The STSS page's conversation and simulation rows, in one pack of Arrow IPC
// streams (first-view-pack.ts): the same queries as their Parquet loaders. They
// grow with the benchmark's episodes, so the page fetches them after its first
// view (stss-first-view.bin.ts).

import {STSS_CONVERSATIONS_SQL, STSS_RUNS_SQL} from "../../loaders/queries/stss.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  stss_conversations: STSS_CONVERSATIONS_SQL,
  stss_runs: STSS_RUNS_SQL,
});
