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

/**
 * Which raters score which SOTOPIA episodes, over every scored episode (not
 * only the multiply-rated ones): one row per LLM or rule rater, and one for
 * the human annotators together, with how many of their episodes a human
 * annotator (for the annotators: two or more of them) and an LLM rater also
 * scored. Says why an agreement view may have nothing to pair.
 */
export const RATER_COVERAGE_SQL = `
WITH scored AS (
  SELECT DISTINCT r.episode_id, r.rater, r.rater_kind
  FROM ratings r JOIN episodes e USING (episode_id) WHERE e.benchmark = 'sotopia'
),
annotated AS (
  SELECT episode_id, count(DISTINCT rater) AS annotators FROM scored WHERE rater_kind = 'human' GROUP BY episode_id
),
judged AS (SELECT DISTINCT episode_id FROM scored WHERE rater_kind = 'llm')
SELECT CASE WHEN s.rater_kind = 'human' THEN 'human annotators' ELSE s.rater END AS rater, s.rater_kind,
       count(DISTINCT s.rater)::INTEGER AS raters,
       count(DISTINCT s.episode_id)::INTEGER AS episodes,
       count(DISTINCT s.episode_id) FILTER (WHERE a.episode_id IS NOT NULL)::INTEGER AS with_humans,
       count(DISTINCT s.episode_id) FILTER (WHERE a.annotators >= 2)::INTEGER AS with_two_humans,
       count(DISTINCT s.episode_id) FILTER (WHERE j.episode_id IS NOT NULL)::INTEGER AS with_llm
FROM scored s
LEFT JOIN annotated a USING (episode_id)
LEFT JOIN judged j USING (episode_id)
GROUP BY 1, 2
ORDER BY s.rater_kind = 'human', episodes DESC, rater
`;

/**
 * The agreement rows of every multiply-rated episode (no cap) with numbered
 * keys, for the agreement page's worker (src/client/agreement-engine.ts):
 * `instance` numbers (episode, agent, dimension) in the rows' order, `episode`
 * the episode, `rater_code` and `dimension_code` the rater and dimension by
 * name; `human` and `played_human` are 0 or 1. Ordered by instance, then
 * rater, the order pairInstances meets the rows in.
 */
export const AGREEMENT_COLUMNS_SQL = `
WITH scored AS (${AGREEMENT_ROWS_SQL}),
raters AS (SELECT rater, (row_number() OVER (ORDER BY rater) - 1)::INTEGER AS rater_code FROM (SELECT DISTINCT rater FROM scored)),
dimensions AS (SELECT dimension, (row_number() OVER (ORDER BY dimension) - 1)::INTEGER AS dimension_code FROM (SELECT DISTINCT dimension FROM scored))
SELECT s.*,
       (dense_rank() OVER (ORDER BY s.episode_id, s.agent, s.dimension) - 1)::INTEGER AS instance,
       (dense_rank() OVER (ORDER BY s.episode_id) - 1)::INTEGER AS episode,
       r.rater_code, d.dimension_code,
       (s.rater_kind = 'human')::TINYINT AS human,
       (s.played_by = 'human')::TINYINT AS played_human
FROM scored s JOIN raters r USING (rater) JOIN dimensions d USING (dimension)
ORDER BY instance, s.rater
`;
