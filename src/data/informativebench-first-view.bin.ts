// The InformativeBench page's tables, in one pack of Arrow IPC streams (first-
// view-pack.ts): the same queries as their Parquet loaders, decoded in the
// browser without wasm.

import {IB_RESULTS_SQL, IB_PLAN_UPDATES_SQL, IB_CONSENSUS_SQL, IB_SCHEDULES_SQL} from "../../loaders/queries/informativebench.js";
import {OVERVIEW_SQL, overviewWithoutSourcesSql} from "../../loaders/queries/overview.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  ib_results: IB_RESULTS_SQL,
  ib_plans: IB_PLAN_UPDATES_SQL,
  ib_consensus: IB_CONSENSUS_SQL,
  ib_schedules: IB_SCHEDULES_SQL,
  overview: {from: OVERVIEW_SQL, sql: overviewWithoutSourcesSql},
});
