// HSII COT rounds (loaders/queries/hsii.ts): per (case, COT variant), whether
// each round's answer matched gold, in round order (HSII §6.4, Table 2).

import {HSII_COT_SQL} from "../../loaders/queries/hsii.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(HSII_COT_SQL);
