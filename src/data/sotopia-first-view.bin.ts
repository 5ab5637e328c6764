// The SOTOPIA page's tables (and the /bench-baseline page's), in one pack of
// Arrow IPC streams (first-view-pack.ts): the same queries as their Parquet
// loaders, decoded in the browser without wasm.

import {OVERVIEW_SQL} from "../../loaders/queries/overview.js";
import {SOTOPIA_STATS_SQL, SOTOPIA_TASKS_SQL, WORDS_PER_TURN_SQL} from "../../loaders/queries/sotopia.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  sotopia_stats: SOTOPIA_STATS_SQL,
  sotopia_tasks: SOTOPIA_TASKS_SQL,
  words_per_turn: WORDS_PER_TURN_SQL,
  overview: OVERVIEW_SQL,
});
