// The HSII page's COT rounds, in one pack of Arrow IPC streams
// (first-view-pack.ts): the same query as their Parquet loader. They grow with
// the benchmark's episodes, so the page fetches them after its first view.
// Table 1 for every judge, policy and runs filter is in the first-view pack
// (hsii-first-view.bin.ts), so the case rows are not shipped to the page.

import {HSII_COT_SQL} from "../../loaders/queries/hsii.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  hsii_cot: HSII_COT_SQL,
});
