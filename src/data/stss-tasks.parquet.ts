// STSS tasks (loaders/queries/stss.ts STSS_TASKS_SQL), for the STSS page; the
// page scores them with src/lib/stss.ts and src/lib/stss-action.ts, as the
// CLI's `report stss` and `report stss-action` do.

import {STSS_TASKS_SQL} from "../../loaders/queries/stss.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(STSS_TASKS_SQL);
