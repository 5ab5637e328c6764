// SQL behind the LIFELONG-SOTOPIA page and reports. Penalised BEL and the
// curves are computed from these rows by src/lib/lifelong.ts.

/**
 * One row per (episode, agent, rater, run): the chain position, memory mode,
 * BEL and GOAL, how many checkpoint labels the rater gave and how many failed,
 * and the penalised BEL the log itself reported, if any.
 */
export const LIFELONG_INSTANCES_SQL = `
SELECT e.episode_id, r.agent, p.model, coalesce(e.settings->>'memory_mode', 'unknown') AS memory_mode,
       e.chain_id, e.chain_index, coalesce((e.settings->>'harder')::BOOLEAN, false) AS harder,
       coalesce(e.settings->>'checkpoint_set', 'paper') AS checkpoint_set,
       r.rater, r.rater_kind, r.run_id,
       max(r.value) FILTER (WHERE r.dimension = 'believability') AS bel,
       max(r.value) FILTER (WHERE r.dimension = 'goal') AS goal,
       count(*) FILTER (WHERE r.dimension LIKE 'checkpoint:%')::INTEGER AS checkpoints,
       count(*) FILTER (WHERE r.dimension LIKE 'checkpoint:%' AND r.value = 0)::INTEGER AS failed,
       max(r.value) FILTER (WHERE r.dimension = 'logged_bel_extended') AS logged_bel_extended
FROM ratings r
JOIN episodes e USING (episode_id)
JOIN participants p ON p.episode_id = r.episode_id AND p.agent = r.agent
WHERE e.benchmark = 'lifelong-sotopia'
GROUP BY ALL
ORDER BY p.model, memory_mode, e.chain_id, e.chain_index, r.agent, r.rater
`;

/** Checkpoint labels of an LLM rater and a human on the same (episode, agent, checkpoint). */
export const CHECKPOINT_PAIRS_SQL = `
SELECT l.episode_id, l.agent, l.dimension, l.rater AS llm_rater, h.rater AS human_rater,
       avg(l.value) AS llm, avg(h.value) AS human
FROM ratings l
JOIN ratings h ON h.episode_id = l.episode_id AND h.agent = l.agent AND h.dimension = l.dimension
WHERE l.rater_kind = 'llm' AND h.rater_kind = 'human' AND l.dimension LIKE 'checkpoint:%'
GROUP BY ALL
ORDER BY l.dimension, l.episode_id, l.agent
`;

/** Checkpoint failure counts per (checklist item, model, memory mode, chain index), for every rater. */
export const CHECKPOINT_FAILURES_SQL = `
SELECT r.dimension, r.rater, p.model, coalesce(e.settings->>'memory_mode', 'unknown') AS memory_mode, e.chain_index,
       count(*)::INTEGER AS n, count(*) FILTER (WHERE r.value = 0)::INTEGER AS failed
FROM ratings r
JOIN episodes e USING (episode_id)
JOIN participants p ON p.episode_id = r.episode_id AND p.agent = r.agent
WHERE e.benchmark = 'lifelong-sotopia' AND r.dimension LIKE 'checkpoint:%'
GROUP BY ALL
ORDER BY 1, 2, 3, 4, 5
`;
