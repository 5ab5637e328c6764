// The SOTOPIA page's first view (and the /bench-baseline page's), in one pack of
// Arrow IPC streams (first-view-pack.ts): the statistics summed over tasks
// (bounded by raters, models and partners, whatever the store's size), words
// per turn and the overview. The per-task rows that only SOTOPIA-hard needs
// come after the first chart, from sotopia-by-task.bin.ts.

import {OVERVIEW_SQL, overviewWithoutSourcesSql} from "../../loaders/queries/overview.js";
import {SOTOPIA_STATS_SQL, sotopiaGroupsSql, WORDS_PER_TURN_SQL} from "../../loaders/queries/sotopia.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  sotopia_groups: {from: SOTOPIA_STATS_SQL, sql: sotopiaGroupsSql},
  words_per_turn: WORDS_PER_TURN_SQL,
  overview: {from: OVERVIEW_SQL, sql: overviewWithoutSourcesSql},
});
