// The STSS page's tables, in one pack of Arrow IPC streams (first-view-
// pack.ts): the same queries as their Parquet loaders, decoded in the browser
// without wasm.

import {OVERVIEW_SQL, overviewWithoutSourcesSql} from "../../loaders/queries/overview.js";
import {STSS_CONVERSATIONS_SQL, STSS_RUNS_SQL, STSS_TASKS_SQL} from "../../loaders/queries/stss.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  stss_conversations: STSS_CONVERSATIONS_SQL,
  stss_runs: STSS_RUNS_SQL,
  stss_tasks: STSS_TASKS_SQL,
  overview: {from: OVERVIEW_SQL, sql: overviewWithoutSourcesSql},
});
