// Sufficient statistics of every rater's SOTOPIA scores (loaders/queries/sotopia.ts):
// small at any store size, and enough for the page to recompute means and sds
// for any choice of rater and models with src/lib/sotopia.ts.

import {SOTOPIA_STATS_SQL} from "../../loaders/queries/sotopia.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(SOTOPIA_STATS_SQL);
