// InformativeBench (loaders/queries/informativebench.ts): the schedule inputs, one row per activity, for checking gold answers with the verifier in the page.

import {IB_SCHEDULES_SQL} from "../../loaders/queries/informativebench.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(IB_SCHEDULES_SQL);
