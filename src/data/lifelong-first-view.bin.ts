// The LIFELONG-SOTOPIA page's first view, in one pack of Arrow IPC streams
// (first-view-pack.ts): BEL, GOAL and penalised BEL as counts, sums and sums of
// squares per (rater, model, memory mode, chain index), the raters, and the
// overview; bounded whatever the number of chains or episodes. The instance
// rows the other sections need come after the first chart, from
// lifelong-rows.bin.ts.

import {LIFELONG_INSTANCES_SQL, lifelongGroupsSql, lifelongRatersSql} from "../../loaders/queries/lifelong.js";
import {OVERVIEW_SQL, overviewWithoutSourcesSql} from "../../loaders/queries/overview.js";
import {emitFirstViewPack} from "./first-view-pack.js";

await emitFirstViewPack({
  lifelong_groups: {from: LIFELONG_INSTANCES_SQL, sql: lifelongGroupsSql},
  lifelong_raters: {from: LIFELONG_INSTANCES_SQL, sql: lifelongRatersSql},
  overview: {from: OVERVIEW_SQL, sql: overviewWithoutSourcesSql},
});
