// Instance rows for the LIFELONG-SOTOPIA page (loaders/queries/lifelong.ts):
// one row per (episode, agent, rater, run) with the chain position, memory
// mode, BEL, GOAL, checkpoint counts and any penalised BEL the log reported.
// src/lib/lifelong.ts turns them into curves and tables in the page, as the
// CLI's `report lifelong` does.

import {LIFELONG_INSTANCES_SQL} from "../../loaders/queries/lifelong.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(LIFELONG_INSTANCES_SQL);
