// The SOTOPIA page's per-task tables, for SOTOPIA-hard: the statistics per
// (rater, task, model, partner, dimension) and the tasks' names, in one pack of
// Arrow IPC streams (first-view-pack.ts). They grow with the store's tasks, so
// the page fetches them after its first chart (sotopia-first-view.bin.ts).

import {SOTOPIA_STATS_SQL, SOTOPIA_TASKS_SQL} from "../../loaders/queries/sotopia.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  sotopia_stats: SOTOPIA_STATS_SQL,
  sotopia_tasks: SOTOPIA_TASKS_SQL,
});
