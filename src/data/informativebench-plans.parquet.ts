// InformativeBench (loaders/queries/informativebench.ts): one row per InfoNav plan update with its rationales, known and fake-solved ones (iAgents Table 4).

import {IB_PLAN_UPDATES_SQL} from "../../loaders/queries/informativebench.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(IB_PLAN_UPDATES_SQL);
