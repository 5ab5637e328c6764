// Every rater's scores and rationales for the viewer's episodes, on the
// SOTOPIA dimensions, in the paper's dimension order.

import {VIEWER_EPISODES_SQL, emitParquet} from "./store.js";

await emitParquet(`
SELECT r.episode_id, r.agent, r.dimension, r.rater, r.rater_kind, r.value,
       coalesce(r.rationale, '') AS rationale, r.run_id
FROM ratings r
JOIN dimensions d ON d.benchmark = 'sotopia' AND d.dimension = r.dimension
WHERE r.episode_id IN (${VIEWER_EPISODES_SQL})
ORDER BY r.episode_id, r.agent, r.rater, d.ord
`);
