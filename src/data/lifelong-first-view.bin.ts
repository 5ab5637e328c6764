// The LIFELONG-SOTOPIA page's tables, in one pack of Arrow IPC streams (first-
// view-pack.ts): the same queries as their Parquet loaders, decoded in the
// browser without wasm.

import {LIFELONG_INSTANCES_SQL, CHECKPOINT_PAIRS_SQL, CHECKPOINT_FAILURES_SQL} from "../../loaders/queries/lifelong.js";
import {OVERVIEW_SQL} from "../../loaders/queries/overview.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  lifelong_instances: LIFELONG_INSTANCES_SQL,
  checkpoint_pairs: CHECKPOINT_PAIRS_SQL,
  checkpoint_failures: CHECKPOINT_FAILURES_SQL,
  overview: OVERVIEW_SQL,
});
