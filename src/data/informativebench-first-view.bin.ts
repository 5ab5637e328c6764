// The InformativeBench page's first view, in one pack of Arrow IPC streams
// (first-view-pack.ts): Table 3 under the default options, computed here by the
// page's own functions (bounded by models and datasets), and the overview.
// Results, plan updates, consensus steps and schedules grow with the
// benchmark's records: the page fetches them after its first view, from
// informativebench-rows.bin.ts.

import {IB_RESULTS_SQL, IB_PLAN_UPDATES_SQL, IB_CONSENSUS_SQL, IB_SCHEDULES_SQL} from "../../loaders/queries/informativebench.js";
import {OVERVIEW_SQL, overviewWithoutSourcesSql} from "../../loaders/queries/overview.js";
import {ibFirstView, informativeBenchData} from "../client/informativebench.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  ib_first: {view: async (rowsOf) => ibFirstView(informativeBenchData({
    ib_results: await rowsOf(IB_RESULTS_SQL), ib_plans: await rowsOf(IB_PLAN_UPDATES_SQL),
    ib_consensus: await rowsOf(IB_CONSENSUS_SQL), ib_schedules: await rowsOf(IB_SCHEDULES_SQL),
  }))},
  overview: {from: OVERVIEW_SQL, sql: overviewWithoutSourcesSql},
});
