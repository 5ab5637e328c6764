// The HSII page's case rows and COT rounds, in one pack of Arrow IPC streams
// (first-view-pack.ts): the same queries as their Parquet loaders. They grow
// with the benchmark's episodes, so the page fetches them after its first view
// (hsii-first-view.bin.ts).

import {HSII_CASES_SQL, HSII_COT_SQL} from "../../loaders/queries/hsii.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  hsii_cases: HSII_CASES_SQL,
  hsii_cot: HSII_COT_SQL,
});
