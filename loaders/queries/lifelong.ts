// SQL behind the LIFELONG-SOTOPIA page and reports. Penalised BEL and the
// curves are computed from these rows by src/lib/lifelong.ts.

/**
 * One row per (episode, agent, rater): the chain position, memory mode, and
 * the rater's runs combined as SOTOPIA combines them, each instance counting
 * once (METRICS.md § LIFELONG-SOTOPIA curves): BEL and GOAL are the means over
 * the rater's runs, `runs` says how many; penalised BEL is Eq. 1 per run with
 * a full eight-label checklist, then the mean of those (null with none),
 * and `bel_checklisted` the mean BEL of those same runs (what Eq. 1 started
 * from, so the two differ only by what failed checkpoints cost); `checkpoints` is the most labels one run gave and `failed` the mean failures
 * per run. The penalised BEL the log itself reported, if any, rides along.
 */
export const LIFELONG_INSTANCES_SQL = `
WITH per_run AS (
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
)
SELECT episode_id, agent, model, memory_mode, chain_id, chain_index, harder, checkpoint_set, rater, rater_kind,
       count(*)::INTEGER AS runs,
       avg(bel) AS bel, avg(goal) AS goal,
       max(checkpoints)::INTEGER AS checkpoints, avg(failed)::DOUBLE AS failed,
       avg(CASE WHEN bel IS NOT NULL AND checkpoints = 8 THEN greatest(bel - 5 * failed, 0) END) AS penalised_bel,
       avg(CASE WHEN bel IS NOT NULL AND checkpoints = 8 THEN bel END) AS bel_checklisted,
       max(logged_bel_extended) AS logged_bel_extended
FROM per_run
GROUP BY ALL
ORDER BY model, memory_mode, chain_id, chain_index, agent, rater
`;

/**
 * Checkpoint labels of an LLM rater and a human on the same (episode, agent,
 * checkpoint), each side's runs kept apart as counts: how many runs labelled
 * it and how many of them said "passes" (1). combineLabels (src/lib/lifelong.ts)
 * turns them into one binary label or a split; never an average of labels.
 */
export const CHECKPOINT_PAIRS_SQL = `
WITH labels AS (
  SELECT episode_id, agent, dimension, rater, rater_kind,
         count(*)::INTEGER AS runs, count(*) FILTER (WHERE value = 1)::INTEGER AS passes
  FROM ratings
  WHERE dimension LIKE 'checkpoint:%' AND rater_kind IN ('llm', 'human')
  GROUP BY ALL
)
SELECT l.episode_id, l.agent, l.dimension, l.rater AS llm_rater, h.rater AS human_rater,
       l.runs AS llm_runs, l.passes AS llm_passes, h.runs AS human_runs, h.passes AS human_passes
FROM labels l
JOIN labels h ON h.episode_id = l.episode_id AND h.agent = l.agent AND h.dimension = l.dimension
WHERE l.rater_kind = 'llm' AND h.rater_kind = 'human'
ORDER BY l.dimension, l.episode_id, l.agent, l.rater, h.rater
`;

/**
 * Checkpoint failures per (checklist item, rater, model, memory mode, chain
 * index), each agent-episode (episode, agent) counting once as the curves
 * count it: `n` agent-episodes, `runs` the rater's runs combined into them,
 * and `failed` the sum over agent-episodes of the share of its runs that
 * failed the item. Σ failed / Σ n over any groups is then the mean of the
 * agent-episodes' shares, never a count of runs.
 */
export const CHECKPOINT_FAILURES_SQL = `
WITH per_instance AS (
  SELECT r.dimension, r.rater, p.model, coalesce(e.settings->>'memory_mode', 'unknown') AS memory_mode, e.chain_index,
         r.episode_id, r.agent,
         count(*)::INTEGER AS runs, (count(*) FILTER (WHERE r.value = 0))::DOUBLE / count(*) AS failed_share
  FROM ratings r
  JOIN episodes e USING (episode_id)
  JOIN participants p ON p.episode_id = r.episode_id AND p.agent = r.agent
  WHERE e.benchmark = 'lifelong-sotopia' AND r.dimension LIKE 'checkpoint:%'
  GROUP BY ALL
)
SELECT dimension, rater, model, memory_mode, chain_index,
       count(*)::INTEGER AS n, sum(runs)::INTEGER AS runs, sum(failed_share)::DOUBLE AS failed
FROM per_instance
GROUP BY ALL
ORDER BY 1, 2, 3, 4, 5
`;

/**
 * The first view's sufficient statistics, from LIFELONG_INSTANCES_SQL's result
 * `source`: per (rater, model, memory mode, chain index), whether any instance
 * there is a harder scenario, the rater's runs combined there, and the count,
 * sum and sum of squares of BEL, GOAL and penalised BEL (the instances' own,
 * each a mean over the rater's runs), and of BEL over the instances with a
 * penalised BEL only (bel_checklisted: the same instances and runs). Bounded by raters × models × memory modes × chain
 * length, however many chains or episodes (issue 18).
 */
export const lifelongGroupsSql = (source: string): string => `
WITH scored AS (
  SELECT *, penalised_bel AS penalised FROM ${source}
)
SELECT rater, model, memory_mode, chain_index, bool_or(harder) AS harder, sum(runs)::INTEGER AS runs,
       count(bel)::INTEGER AS bel_n, coalesce(sum(bel), 0)::DOUBLE AS bel_sum, coalesce(sum(bel * bel), 0)::DOUBLE AS bel_sum_sq,
       count(goal)::INTEGER AS goal_n, coalesce(sum(goal), 0)::DOUBLE AS goal_sum, coalesce(sum(goal * goal), 0)::DOUBLE AS goal_sum_sq,
       count(penalised)::INTEGER AS penalised_n, coalesce(sum(penalised), 0)::DOUBLE AS penalised_sum,
       coalesce(sum(penalised * penalised), 0)::DOUBLE AS penalised_sum_sq,
       count(bel_checklisted)::INTEGER AS bel_checklisted_n, coalesce(sum(bel_checklisted), 0)::DOUBLE AS bel_checklisted_sum,
       coalesce(sum(bel_checklisted * bel_checklisted), 0)::DOUBLE AS bel_checklisted_sum_sq
FROM scored
GROUP BY rater, model, memory_mode, chain_index
ORDER BY rater, model, memory_mode, chain_index
`;

/**
 * The raters, from LIFELONG_INSTANCES_SQL's result `source`, in the order they
 * first appear in its rows (model, memory mode, chain, index, agent, rater):
 * the kind of that first row, the rater's agent-episodes, and whether it is an
 * LLM rater with a BEL score (the page's default is the first such rater).
 */
export const lifelongRatersSql = (source: string): string => `
SELECT rater, arg_min(rater_kind, {m: model, mm: memory_mode, c: chain_id, i: chain_index, a: agent}) AS kind,
       count(*)::INTEGER AS n, bool_or(rater_kind = 'llm' AND bel IS NOT NULL) AS llm_bel
FROM ${source}
GROUP BY rater
ORDER BY min({m: model, mm: memory_mode, c: chain_id, i: chain_index, a: agent, r: rater})
`;
