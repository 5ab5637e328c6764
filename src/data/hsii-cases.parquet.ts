// HSII case rows (loaders/queries/hsii.ts): one per (case episode, judging
// rater) with stages 1–2 as used, what the log and the parser said, and the
// stage-3/4 verdicts in both orders. src/lib/hsii.ts scores them in the page,
// as the CLI's `report hsii` does.

import {HSII_CASES_SQL} from "../../loaders/queries/hsii.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(HSII_CASES_SQL);
