// Checkpoint failure counts per (checkpoint, rater, model, memory mode, chain
// index) (loaders/queries/lifelong.ts): the failure-rate curves of the
// LIFELONG-SOTOPIA page, pre-aggregated so they stay small at any store size.

import {CHECKPOINT_FAILURES_SQL} from "../../loaders/queries/lifelong.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(CHECKPOINT_FAILURES_SQL);
