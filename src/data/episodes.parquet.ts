// The episode list of the viewer (SOTOPIA, first VIEWER_LIMIT by id): what a
// reader searches by. Seats are listed in order, "model 1 vs model 2".

import {VIEWER_EPISODES_SQL, emitParquet} from "./store.js";

await emitParquet(`
SELECT e.episode_id,
       coalesce(e.scenario, '') AS scenario,
       coalesce(e.codename, '') AS codename,
       coalesce(e.tag, '') AS tag,
       e.synthetic,
       coalesce((SELECT string_agg(p.model, ' vs ' ORDER BY p.agent) FROM participants p WHERE p.episode_id = e.episode_id), '') AS models,
       coalesce((SELECT string_agg(coalesce(p.character, ''), ' & ' ORDER BY p.agent) FROM participants p WHERE p.episode_id = e.episode_id), '') AS characters,
       (SELECT count(DISTINCT m.turn) FROM messages m WHERE m.episode_id = e.episode_id)::INTEGER AS turns,
       (SELECT count(*) FROM messages m WHERE m.episode_id = e.episode_id)::INTEGER AS messages
FROM episodes e
WHERE e.episode_id IN (${VIEWER_EPISODES_SQL})
ORDER BY e.episode_id
`);
