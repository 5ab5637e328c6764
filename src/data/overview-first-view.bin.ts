// The overview page's first view, in one pack of Arrow IPC streams (first-view-
// pack.ts): benchmarks, models and raters, and the imported files grouped by
// benchmark and format. The list of every file grows with imports, so the page
// reads it on demand from overview-sources.bin.ts.

import {OVERVIEW_SQL, overviewWithoutSourcesSql, sourceGroupsSql} from "../../loaders/queries/overview.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  overview: {from: OVERVIEW_SQL, sql: overviewWithoutSourcesSql},
  source_groups: {from: OVERVIEW_SQL, sql: sourceGroupsSql},
});
