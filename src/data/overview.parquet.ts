// What the store holds, for the overview page: one long table of counts.
// section = 'source' (one row per imported file, named by its base name only),
// 'benchmark', 'model' (per benchmark) or 'rater' (per benchmark). A column
// that does not apply to a section is NULL. Absolute paths never leave the store.

import {emitParquet} from "./store.js";

await emitParquet(`
WITH
-- Episodes a source contributed: the ones it holds, and the ones its scores rate.
source_episodes AS (
  SELECT source_id, episode_id FROM episodes
  UNION
  SELECT source_id, episode_id FROM ratings
),
src AS (
  SELECT 'source' AS section,
         coalesce(string_agg(DISTINCT e.benchmark, ', '), '') AS benchmark,
         parse_filename(s.path) AS name,
         s.format AS kind,
         count(e.episode_id)::INTEGER AS episodes,
         count(e.episode_id) FILTER (WHERE e.synthetic)::INTEGER AS synthetic,
         s.rows::BIGINT AS records,
         (SELECT count(*) FROM ratings r WHERE r.source_id = s.source_id)::BIGINT AS scores,
         s.rejected::INTEGER AS rejected,
         strftime(s.imported_at, '%Y-%m-%d %H:%M') AS imported_at
  FROM sources s
  LEFT JOIN source_episodes se USING (source_id)
  LEFT JOIN episodes e ON e.episode_id = se.episode_id
  GROUP BY s.source_id, s.path, s.format, s.rows, s.rejected, s.imported_at
),
bench AS (
  SELECT 'benchmark' AS section, benchmark, benchmark AS name,
         count(*)::INTEGER AS episodes,
         count(*) FILTER (WHERE synthetic)::INTEGER AS synthetic,
         sum((SELECT count(*) FROM messages m WHERE m.episode_id = e.episode_id))::BIGINT AS messages,
         sum((SELECT count(*) FROM ratings r WHERE r.episode_id = e.episode_id))::BIGINT AS scores
  FROM episodes e GROUP BY benchmark
),
model AS (
  SELECT 'model' AS section, e.benchmark, p.model AS name,
         count(DISTINCT p.episode_id)::INTEGER AS episodes,
         count(DISTINCT p.episode_id) FILTER (WHERE e.synthetic)::INTEGER AS synthetic,
         count(*)::BIGINT AS seats
  FROM participants p JOIN episodes e USING (episode_id)
  GROUP BY e.benchmark, p.model
),
rater AS (
  SELECT 'rater' AS section, e.benchmark, r.rater AS name, r.rater_kind AS kind,
         count(DISTINCT r.episode_id)::INTEGER AS episodes,
         count(DISTINCT r.episode_id) FILTER (WHERE e.synthetic)::INTEGER AS synthetic,
         count(*)::BIGINT AS scores
  FROM ratings r JOIN episodes e USING (episode_id)
  GROUP BY e.benchmark, r.rater, r.rater_kind
)
SELECT section, benchmark, name, kind, episodes, synthetic, records, messages, seats, scores, rejected, imported_at FROM (
  SELECT * FROM src
  UNION ALL BY NAME SELECT * FROM bench
  UNION ALL BY NAME SELECT * FROM model
  UNION ALL BY NAME SELECT * FROM rater
)
ORDER BY section, benchmark, episodes DESC, name
`);
