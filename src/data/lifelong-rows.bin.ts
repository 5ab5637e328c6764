// The LIFELONG-SOTOPIA page's instance tables, in one pack of Arrow IPC streams
// (first-view-pack.ts): the same queries as their Parquet loaders. They grow
// with the benchmark's episodes, so the page fetches them after its first
// chart (lifelong-first-view.bin.ts).

import {LIFELONG_INSTANCES_SQL, CHECKPOINT_PAIRS_SQL, CHECKPOINT_FAILURES_SQL} from "../../loaders/queries/lifelong.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  lifelong_instances: LIFELONG_INSTANCES_SQL,
  checkpoint_pairs: CHECKPOINT_PAIRS_SQL,
  checkpoint_failures: CHECKPOINT_FAILURES_SQL,
});
