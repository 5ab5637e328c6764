// The LIFELONG-SOTOPIA page's sections after its curves: the checkpoint failure
// counts (the same query as their Parquet loader; bounded by checkpoints,
// raters, models, memory modes and chain indices) and, per rater and LLM rater,
// what the page reads from the instance rows and checkpoint pairs, computed
// here by the page's own functions (lifelongRowViews). The rows themselves grow
// with the benchmark's episodes and are not shipped; the page fetches this pack
// after its first chart (lifelong-first-view.bin.ts).

import {LIFELONG_INSTANCES_SQL, CHECKPOINT_PAIRS_SQL, CHECKPOINT_FAILURES_SQL} from "../../loaders/queries/lifelong.js";
import {lifelongData, lifelongRowViews} from "../client/lifelong.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  checkpoint_failures: CHECKPOINT_FAILURES_SQL,
  lifelong_views: {view: async (rowsOf) => lifelongRowViews(lifelongData({
    lifelong_instances: await rowsOf(LIFELONG_INSTANCES_SQL), checkpoint_pairs: await rowsOf(CHECKPOINT_PAIRS_SQL), checkpoint_failures: await rowsOf(CHECKPOINT_FAILURES_SQL),
  }))},
});
