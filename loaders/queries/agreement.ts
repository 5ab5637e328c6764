// SQL behind the agreement audit: instance rows for every rater on episodes
// that two or more raters scored. The pairing and the statistics happen in
// src/lib/agreement.ts, so pages and the CLI compute them the same way.

/**
 * One row per (episode, agent, dimension, rater): the rater's score, averaged
 * over that rater's runs or responses (`responses` says how many), with the
 * dimension's range and who played the rated agent (`model` or `human`).
 */
export const AGREEMENT_ROWS_SQL = `
WITH multi AS (
  SELECT episode_id FROM ratings GROUP BY episode_id HAVING count(DISTINCT rater) >= 2
)
SELECT r.episode_id, r.agent, r.dimension, r.rater, r.rater_kind,
       avg(r.value)::DOUBLE AS value, count(*)::INTEGER AS responses,
       d.lo, d.hi,
       CASE WHEN p.model = 'human' THEN 'human' ELSE 'model' END AS played_by,
       p.model
FROM ratings r
JOIN multi USING (episode_id)
JOIN episodes e USING (episode_id)
JOIN dimensions d ON d.benchmark = e.benchmark AND d.dimension = r.dimension
JOIN participants p ON p.episode_id = r.episode_id AND p.agent = r.agent
WHERE e.benchmark = 'sotopia'
GROUP BY ALL
ORDER BY r.episode_id, r.agent, r.dimension, r.rater
`;
