// The scenario of every multiply-rated SOTOPIA episode (loaders/queries/reliability.ts):
// the agreement page's reliability section draws whole scenarios when its
// bootstrap is clustered, as `sociometer report reliability --cluster scenario` does.

import {EPISODE_SCENARIOS_SQL} from "../../loaders/queries/reliability.js";
import {emitParquet} from "./store.js";

await emitParquet(EPISODE_SCENARIOS_SQL);
