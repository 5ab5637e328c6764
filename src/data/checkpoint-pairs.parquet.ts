// Checkpoint labels of an LLM rater beside a human's on the same (episode,
// agent, checkpoint) (loaders/queries/lifelong.ts): the rows behind the BELEXT
// validation table (LIFELONG-SOTOPIA Table 1), as `report belext` reads them.

import {CHECKPOINT_PAIRS_SQL} from "../../loaders/queries/lifelong.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(CHECKPOINT_PAIRS_SQL);
