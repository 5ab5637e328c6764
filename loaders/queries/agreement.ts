// SQL behind the agreement audit: instance rows for every rater on episodes
// that two or more raters scored. The pairing and the statistics happen in
// src/lib/agreement.ts, so pages and the CLI compute them the same way.

/**
 * One row per (episode, agent, dimension, rater): the rater's score, averaged
 * over that rater's runs or responses (`responses` says how many), with the
 * dimension's range and who played the rated agent (`model` or `human`).
 */
export const AGREEMENT_ROWS_SQL = agreementRowsSql(null);

/**
 * The same rows for at most `limit` multiply-rated episodes (the first by id),
 * each row also saying how many such episodes the store holds, so a page can
 * say "showing N of M". Null: every episode.
 */
export function agreementRowsSql(limit: number | null): string {
  if (limit !== null && !(Number.isInteger(limit) && limit > 0)) throw new Error(`limit must be a positive whole number, got ${limit}`);
  return `
WITH all_multi AS (
  SELECT r.episode_id FROM ratings r JOIN episodes e USING (episode_id)
  WHERE e.benchmark = 'sotopia' GROUP BY r.episode_id HAVING count(DISTINCT r.rater) >= 2
),
multi AS (
  SELECT episode_id FROM all_multi ORDER BY episode_id ${limit === null ? "" : `LIMIT ${limit}`}
)
SELECT r.episode_id, r.agent, r.dimension, r.rater, r.rater_kind,
       avg(r.value)::DOUBLE AS value, count(*)::INTEGER AS responses,
       d.lo, d.hi,
       CASE WHEN p.model = 'human' THEN 'human' ELSE 'model' END AS played_by,
       p.model,
       (SELECT count(*) FROM all_multi)::INTEGER AS multiply_rated_episodes
FROM ratings r
JOIN multi USING (episode_id)
JOIN episodes e USING (episode_id)
JOIN dimensions d ON d.benchmark = e.benchmark AND d.dimension = r.dimension
JOIN participants p ON p.episode_id = r.episode_id AND p.agent = r.agent
WHERE e.benchmark = 'sotopia'
GROUP BY ALL
ORDER BY r.episode_id, r.agent, r.dimension, r.rater
`;
}
