// The STSS page's first view, in one pack of Arrow IPC streams (first-view-
// pack.ts): Table 3 under the default options and every table over
// conversations and Table 4 for every choice the page offers, computed here by
// the page's own functions (bounded by verdict sets, models, architectures,
// tasks and conditions), the task definitions, and the overview. Simulation
// runs grow with the benchmark's episodes: the page fetches them after its
// first view, from stss-rows.bin.ts.

// The conversation rows (217k at ×100 the samples) are read one (model,
// architecture) at a time (stssFirstViewByParts), so the loader's memory
// follows the largest pair, not the store; the same bytes as from all rows at
// once, which stays the path for a store whose runs span two pairs.

import {OVERVIEW_SQL, overviewWithoutSourcesSql} from "../../loaders/queries/overview.js";
import {STSS_CONVERSATIONS_SQL, STSS_RUNS_ACROSS_PAIRS_SQL, STSS_RUNS_SQL, STSS_TASKS_SQL} from "../../loaders/queries/stss.js";
import {stssData, stssFirstView, stssFirstViewByParts, stssRuns} from "../client/stss.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  stss_first: {view: async (rowsOf, partsOf) => {
    const stss_runs = await rowsOf(STSS_RUNS_SQL), stss_tasks = await rowsOf(STSS_TASKS_SQL);
    const [across] = await rowsOf(STSS_RUNS_ACROSS_PAIRS_SQL);
    if (Number(across?.runs) > 0) return stssFirstView(stssData({stss_conversations: await rowsOf(STSS_CONVERSATIONS_SQL), stss_runs, stss_tasks}));
    const {read} = await partsOf(STSS_CONVERSATIONS_SQL, ["model", "architecture"]);
    return stssFirstViewByParts(read, stssRuns({stss_runs}));
  }},
  stss_tasks: STSS_TASKS_SQL,
  overview: {from: OVERVIEW_SQL, sql: overviewWithoutSourcesSql},
});
