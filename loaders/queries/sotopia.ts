// SQL over the store for the SOTOPIA pages and reports. The loaders and the
// CLI run these same statements, then apply the same library formulas.

/**
 * A task's id (SOTOPIA §7: a scenario with its pair of characters), over an
 * episode `e` joined with every participant `q` of it: the scenario id, then
 * each character's profile id (or name) in sorted order.
 */
const TASK_REF_OF = (alias: string) => `coalesce(${alias}.agent_ref, ${alias}.character, ${alias}.agent::VARCHAR)`;
const TASK_REF = TASK_REF_OF("q");
/** How a seat's character is named for people: its name, else its profile id, else its seat. */
const CHARACTER_OF = (alias: string) => `coalesce(${alias}.character, ${alias}.agent_ref, 'agent ' || ${alias}.agent)`;
// list_sort over a plain list, not an ordered aggregate (string_agg … ORDER BY sorts
// inside every group, the bulk of sotopia-stats' time at 100k episodes); same text.
const TASK_ID_SQL = `coalesce(any_value(e.scenario_id), any_value(e.scenario), '') || ' | ' || array_to_string(list_sort(list(${TASK_REF})), ' & ')`;

// Sums of non-integer scores (a rater's repeated runs averaged, the humans'
// mean, the overall mean of seven) in DOUBLE depend on the order DuckDB's
// threads add them in, so the packs differed in bytes on every build (issue 18).
// Each value is rounded once to 20 decimals (far below a double's precision at
// these scales) and added exactly as a DECIMAL, then rounded once to DOUBLE: the
// same result in any order, on any number of threads. Scores past 10^18 fail
// the cast loudly rather than wrap. DuckDB casts between DOUBLE and
// DECIMAL(38, 20) by scaling with 10^20 in floating point: exact for an integer
// score or square up to 94 (its odd part times 5^20 fits in 53 bits), not for
// larger sums (an integer sum of 226 came back as 225.99999999999997). So sums
// go to DOUBLE through their text, parsed to the nearest double, and sums
// summed again come in through theirs.
/** The exact sum of `expr` over a group, as the DOUBLE nearest to it. */
const exactSum = (expr: string): string => `sum((${expr})::DECIMAL(38, 20))::VARCHAR::DOUBLE`;
/** The mean of `expr` over a group (no NULLs: ratings.value is NOT NULL), from its exact sum divided once. */
export const exactMean = (expr: string): string => `(${exactSum(expr)} / count(*))`;

/**
 * The pseudo-rater `humans`: per (episode, agent, dimension), the mean over
 * the human annotators of `perRater`, a table or subquery with one row per
 * (episode, agent, rater, dimension) whose value already averages that
 * rater's repeated responses, and a rater_kind. So every annotator counts
 * once, however often they answered. SOTOPIA_STATS_SQL and the Compare rows
 * (loaders/queries/compare.ts) both pool with it.
 */
export const humansPooledSql = (perRater: string): string => `
  SELECT episode_id, agent, dimension, ${exactMean("value")} AS value
  FROM ${perRater}
  WHERE rater_kind = 'human'
  GROUP BY episode_id, agent, dimension`;

/**
 * Sufficient statistics (n, sum, sum of squares) of every rater's scores per
 * (task, model, partner model, dimension), plus an `overall` group built from
 * instances scored on all seven dimensions (overall = mean of the seven,
 * src/lib/sotopia.ts overallScore).
 *
 * An instance is (episode, agent, rater); a rater's repeated runs or responses
 * on one instance are averaged first, so each instance counts once. The
 * pseudo-rater `humans` (rater_kind `human_mean`) scores each instance with the
 * mean over its human annotators, as SOTOPIA's human score does. A task is
 * a scenario with its character pair (SOTOPIA §7); the partner is the other
 * seat's model.
 */
export const SOTOPIA_STATS_SQL = `
WITH sotopia_dims AS (
  SELECT dimension FROM dimensions WHERE benchmark = 'sotopia'
),
-- Two-seat episodes (SOTOPIA's own) pair each seat with the other by a join,
-- no aggregate: per-episode lists do not spill to disk, and over 2M seats they
-- alone passed a 1 GiB memory cap. Other seat counts keep the general lists.
pairs AS (
  SELECT episode_id FROM participants GROUP BY episode_id HAVING count(*) = 2 AND count(DISTINCT agent) = 2
),
seat AS (
  SELECT p.episode_id, p.agent, p.model, q.model AS partner,
         coalesce(e.scenario_id, e.scenario, '') || ' | ' || least(${TASK_REF_OF("p")}, ${TASK_REF}) || ' & ' || greatest(${TASK_REF_OF("p")}, ${TASK_REF}) AS task_id
  FROM participants p
  JOIN participants q ON q.episode_id = p.episode_id AND q.agent <> p.agent
  JOIN episodes e ON e.episode_id = p.episode_id
  WHERE e.benchmark = 'sotopia' AND p.episode_id IN (SELECT episode_id FROM pairs)
  UNION ALL
  SELECT p.episode_id, p.agent, p.model,
         coalesce(array_to_string(list_sort(list(q.model) FILTER (WHERE q.agent <> p.agent)), ' + '), '') AS partner,
         ${TASK_ID_SQL} AS task_id
  FROM participants p
  JOIN participants q USING (episode_id)
  JOIN episodes e ON e.episode_id = p.episode_id
  WHERE e.benchmark = 'sotopia' AND p.episode_id NOT IN (SELECT episode_id FROM pairs)
  GROUP BY p.episode_id, p.agent, p.model
),
-- Instances are grouped on their own keys; the seat's long labels (task, model,
-- partner) join once, for the final groups: hashing them at every step took
-- twice the time and half again the memory.
scored AS (
  SELECT episode_id, agent, rater, rater_kind, dimension, ${exactMean("value")} AS value
  FROM ratings
  WHERE dimension IN (SELECT dimension FROM sotopia_dims)
  GROUP BY episode_id, agent, rater, rater_kind, dimension
),
human_mean AS (
  SELECT episode_id, agent, 'humans' AS rater, 'human_mean' AS rater_kind, dimension, value FROM (${humansPooledSql("scored")})
),
per_rater AS (
  SELECT * FROM scored UNION ALL BY NAME SELECT * FROM human_mean
),
overall AS (
  SELECT episode_id, agent, rater, rater_kind, 'overall' AS dimension, ${exactMean("value")} AS value
  FROM per_rater
  GROUP BY episode_id, agent, rater, rater_kind
  HAVING count(*) = (SELECT count(*) FROM sotopia_dims)
)
SELECT x.rater, x.rater_kind, s.task_id, s.model, s.partner, x.dimension,
       count(*)::INTEGER AS n, ${exactSum("x.value")} AS sum, ${exactSum("x.value * x.value")} AS sum_sq
FROM (SELECT * FROM per_rater UNION ALL BY NAME SELECT * FROM overall) x
JOIN seat s ON s.episode_id = x.episode_id AND s.agent = x.agent
GROUP BY x.rater, x.rater_kind, s.task_id, s.model, s.partner, x.dimension
ORDER BY x.rater, x.rater_kind, s.task_id, s.model, s.partner, x.dimension
`;

/**
 * SOTOPIA_STATS_SQL's sums over tasks: n, sum and sum of squares per (rater,
 * model, partner, dimension), read from that query's result `source`. Enough
 * for the SOTOPIA page's means, matrix and Table 3 (sums are additive), and
 * bounded by raters × models² × 8 however many tasks and episodes the store
 * holds; only SOTOPIA-hard needs the per-task rows.
 */
export const sotopiaGroupsSql = (source: string): string => `
SELECT rater, rater_kind, model, partner, dimension,
       sum(n)::INTEGER AS n, ${exactSum("sum::VARCHAR")} AS sum, ${exactSum("sum_sq::VARCHAR")} AS sum_sq
FROM ${source}
GROUP BY rater, rater_kind, model, partner, dimension
ORDER BY rater, rater_kind, model, partner, dimension
`;

/**
 * Words per turn (SOTOPIA §7): per speaking model (or `human`), the number of
 * spoken utterances and their total whitespace-separated words, summed from the
 * counts each import stores in spoken_words (loaders/store/spoken-words.ts).
 */
export const WORDS_PER_TURN_SQL = `
SELECT p.model, count(*)::INTEGER AS turns, sum(w.words)::BIGINT AS words
FROM spoken_words w
JOIN participants p ON p.episode_id = w.episode_id AND p.agent = w.agent
JOIN episodes e ON e.episode_id = w.episode_id
WHERE e.benchmark = 'sotopia'
GROUP BY p.model
ORDER BY p.model
`;

/**
 * How each SOTOPIA task is named for people (SOTOPIA-hard lists): its id as
 * in SOTOPIA_STATS_SQL, the scenario's codename, and the characters' names
 * in the order of the profile ids in the task id. The first episode (by id)
 * of a task names it, and `episodes` counts them.
 */
export const SOTOPIA_TASKS_SQL = `
WITH pairs AS (
  SELECT episode_id FROM participants GROUP BY episode_id HAVING count(*) = 2 AND count(DISTINCT agent) = 2
),
named AS (
  -- Two-seat episodes by a join, as in SOTOPIA_STATS_SQL's seats: per-episode lists do not spill.
  SELECT e.episode_id, coalesce(e.scenario_id, e.scenario, '') || ' | ' || least(x.rp, x.rq) || ' & ' || greatest(x.rp, x.rq) AS task_id,
         e.codename, CASE WHEN x.rp <= x.rq THEN x.cp || ' & ' || x.cq ELSE x.cq || ' & ' || x.cp END AS characters
  FROM (
    SELECT p.episode_id, ${TASK_REF_OF("p")} AS rp, ${TASK_REF} AS rq,
           ${CHARACTER_OF("p")} AS cp, ${CHARACTER_OF("q")} AS cq
    FROM participants p JOIN participants q ON q.episode_id = p.episode_id AND p.agent < q.agent
    WHERE p.episode_id IN (SELECT episode_id FROM pairs)
  ) x
  JOIN episodes e USING (episode_id)
  WHERE e.benchmark = 'sotopia'
  UNION ALL
  SELECT e.episode_id, ${TASK_ID_SQL} AS task_id, any_value(e.codename) AS codename,
         string_agg(${CHARACTER_OF("q")}, ' & ' ORDER BY ${TASK_REF}) AS characters
  FROM episodes e
  JOIN participants q USING (episode_id)
  WHERE e.benchmark = 'sotopia' AND e.episode_id NOT IN (SELECT episode_id FROM pairs)
  GROUP BY e.episode_id
)
SELECT task_id, arg_min(codename, episode_id) AS codename, arg_min(characters, episode_id) AS characters, count(*)::INTEGER AS episodes
FROM named
GROUP BY task_id
ORDER BY task_id
`;
