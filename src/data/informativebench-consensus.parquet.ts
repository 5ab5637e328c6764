// InformativeBench (loaders/queries/informativebench.ts): rationales kept and dropped by each plan's consensus step (iAgents Table 4).

import {IB_CONSENSUS_SQL} from "../../loaders/queries/informativebench.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(IB_CONSENSUS_SQL);
