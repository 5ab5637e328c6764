// Every imported file with its counts (the overview's 'source' rows), in a pack
// of Arrow IPC streams (first-view-pack.ts). One row per file, so it grows with
// imports: the overview page fetches it only when the reader opens the list.

import {OVERVIEW_SQL, sourcesSql} from "../../loaders/queries/overview.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  sources: {from: OVERVIEW_SQL, sql: sourcesSql},
});
