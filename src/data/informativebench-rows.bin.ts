// The InformativeBench page's results, InfoNav plan updates, consensus steps
// and schedules, in one pack of Arrow IPC streams (first-view-pack.ts): the
// same queries as their Parquet loaders. They grow with the benchmark's
// records, so the page fetches them after its first view
// (informativebench-first-view.bin.ts). With them, each record's score under
// both matches (ib_scores, in the order of the page's records), so no input
// event on the page scores a record.

import {IB_RESULTS_SQL, IB_PLAN_UPDATES_SQL, IB_CONSENSUS_SQL, IB_SCHEDULES_SQL} from "../../loaders/queries/informativebench.js";
import {informativeBenchData, recordScores} from "../client/informativebench.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  ib_results: IB_RESULTS_SQL,
  ib_plans: IB_PLAN_UPDATES_SQL,
  ib_consensus: IB_CONSENSUS_SQL,
  ib_schedules: IB_SCHEDULES_SQL,
  // Scored from the text as stored (a redacted answer could match a redacted gold), the problems redacted after (first-view-pack.ts); the rows above ship redacted, in the same order (ib_results' key, episode_id, ends the order).
  ib_scores: {asStored: true, columns: async (rowsOf) => {
    const scores = recordScores(informativeBenchData({
      ib_results: await rowsOf(IB_RESULTS_SQL), ib_plans: await rowsOf(IB_PLAN_UPDATES_SQL),
      ib_consensus: await rowsOf(IB_CONSENSUS_SQL), ib_schedules: await rowsOf(IB_SCHEDULES_SQL),
    }));
    return {...scores};
  }},
});
