// Transcripts of the viewer's episodes, one row per message in episode order.
// agent is NULL for the environment.

import {VIEWER_EPISODES_SQL, emitParquet} from "./store.js";

await emitParquet(`
SELECT episode_id, seq, turn, agent, action_type, content
FROM messages
WHERE episode_id IN (${VIEWER_EPISODES_SQL})
ORDER BY episode_id, seq
`);
