// The HSII page's whole data, in one pack of Arrow IPC streams (first-view-
// pack.ts): Table 1 under the default options and for every judge, policy and
// runs filter, and the COT runs as counts of first-solved rounds per model,
// computed here by the page's own functions (bounded by judges, models,
// clusters and the longest run), the judges, and the overview. The case rows
// and COT rounds grow with the benchmark's episodes and are not shipped.

import {HSII_CASES_SQL, HSII_COT_SQL} from "../../loaders/queries/hsii.js";
import {OVERVIEW_SQL, overviewWithoutSourcesSql} from "../../loaders/queries/overview.js";
import {hsiiData, hsiiFirstView} from "../client/hsii.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  hsii_first: {view: async (rowsOf) => hsiiFirstView(hsiiData({hsii_cases: await rowsOf(HSII_CASES_SQL), hsii_cot: await rowsOf(HSII_COT_SQL)}))},
  overview: {from: OVERVIEW_SQL, sql: overviewWithoutSourcesSql},
});
