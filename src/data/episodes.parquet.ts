// The episode list of the viewer (every benchmark with transcripts, at most
// VIEWER_LIMIT: see VIEWER_EPISODES_SQL): what a reader searches by. `benchmark`
// is the name the overview counts it under; models lists the seats that
// played, in order ("model 1 vs model 2"), never the dataset's speakers.

import {summarySql} from "./viewer-pack.js";
import {VIEWER_EPISODES_SQL, emitParquet} from "./store.js";

// The same columns the viewer's list pack carries (summarySql), for the episodes VIEWER_EPISODES_SQL picks.
await emitParquet(`SELECT * FROM (${summarySql(`(${VIEWER_EPISODES_SQL})`)}) ORDER BY benchmark, episode_id`);
