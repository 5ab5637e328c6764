// The overview page's first view, in one pack of Arrow IPC streams (first-view-
// pack.ts): the same queries as their Parquet loaders, decoded in the browser
// without wasm.

import {OVERVIEW_SQL} from "../../loaders/queries/overview.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  overview: OVERVIEW_SQL,
});
