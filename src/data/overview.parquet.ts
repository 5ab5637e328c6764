// What the store holds, for the overview page: one long table of counts.
// section = 'source' (one row per imported file, named by its base name only),
// 'benchmark', 'model' (per benchmark) or 'rater' (per benchmark). A column
// that does not apply to a section is NULL. Absolute paths never leave the store.
// The query is in loaders/queries/overview.ts.

import {OVERVIEW_SQL} from "../../loaders/queries/overview.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(OVERVIEW_SQL);
