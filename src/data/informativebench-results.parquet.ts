// InformativeBench (loaders/queries/informativebench.ts): one row per (backend model, question, settings) record with prediction, gold and settings; src/lib/informativebench.ts scores them in the page, as `report informativebench` does.

import {IB_RESULTS_SQL} from "../../loaders/queries/informativebench.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(IB_RESULTS_SQL);
