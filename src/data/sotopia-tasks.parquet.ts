// How each SOTOPIA task is named for people (loaders/queries/sotopia.ts
// SOTOPIA_TASKS_SQL): codename and characters beside the task id, for the
// SOTOPIA-hard list. One small row per task.

import {SOTOPIA_TASKS_SQL} from "../../loaders/queries/sotopia.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(SOTOPIA_TASKS_SQL);
