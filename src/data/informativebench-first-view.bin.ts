// The InformativeBench page's first view, in one pack of Arrow IPC streams
// (first-view-pack.ts): Table 3 under the default options, computed here by the
// page's own functions (bounded by models and datasets), and the overview.
// Results, plan updates, consensus steps and schedules grow with the
// benchmark's records: the page fetches them after its first view, from
// informativebench-rows.bin.ts. Here the records are read one (backend,
// dataset) at a time and the plan updates one episode at a time
// (informativebench-first-view-parts.ts), so the loader's memory follows the
// largest part, not the store.

import {IB_RESULTS_SQL, IB_PLAN_UPDATES_SQL, IB_CONSENSUS_SQL, IB_SCHEDULES_SQL} from "../../loaders/queries/informativebench.js";
import {OVERVIEW_SQL, overviewWithoutSourcesSql} from "../../loaders/queries/overview.js";
import {IB_SETTINGS} from "../lib/informativebench.js";
import {emitFirstViewPack} from "./first-view-pack.js";
import {ibFirstViewByParts} from "./informativebench-first-view-parts.js";

const settingsColumns = IB_SETTINGS.map((x) => x.key).join(", ");

await emitFirstViewPack({
  // Answers are scored from their text as stored, as `report informativebench` scores them; the view is redacted after (first-view-pack.ts).
  ib_first: {asStored: true, view: async (rowsOf, partsOf, summaryOf) => {
    // By question, so parquet-wasm's Arrow copy holds one read (at most 20,000 rows, partsOf), not the largest part's 100k at ×100.
    const results = await partsOf(IB_RESULTS_SQL, ["model", "dataset", "question_id"]);
    const updates = await partsOf(IB_PLAN_UPDATES_SQL, ["episode_id"]);
    return ibFirstViewByParts({
      settingsCounts: await summaryOf(IB_RESULTS_SQL, (source) => `SELECT dataset, ${settingsColumns}, count(*)::DOUBLE AS records FROM ${source} GROUP BY ALL`),
      planEpisodes: new Set((await summaryOf(IB_PLAN_UPDATES_SQL, (source) => `SELECT DISTINCT episode_id FROM ${source}`)).map((r) => r.episode_id as string)),
      results: results.read, updates: updates.read,
      consensus: await rowsOf(IB_CONSENSUS_SQL), schedules: await rowsOf(IB_SCHEDULES_SQL),
    });
  }},
  overview: {from: OVERVIEW_SQL, sql: overviewWithoutSourcesSql},
});
