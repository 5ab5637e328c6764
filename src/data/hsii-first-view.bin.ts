// The HSII page's tables, in one pack of Arrow IPC streams (first-view-
// pack.ts): the same queries as their Parquet loaders, decoded in the browser
// without wasm.

import {HSII_CASES_SQL, HSII_COT_SQL} from "../../loaders/queries/hsii.js";
import {OVERVIEW_SQL, overviewWithoutSourcesSql} from "../../loaders/queries/overview.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  hsii_cases: HSII_CASES_SQL,
  hsii_cot: HSII_COT_SQL,
  overview: {from: OVERVIEW_SQL, sql: overviewWithoutSourcesSql},
});
