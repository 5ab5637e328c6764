// SQL behind `sociometer compare` and the Compare page: one row per value of
// one metric (src/lib/compare.ts CompareRow), with the keys a side can select
// (model, rater, run, source, setting, memory, cot) and the keys that pair
// items (task across models or settings, instance across raters). The
// pairing, the tests and the family adjustment happen in src/lib/compare.ts.
// InformativeBench is scored by the metric library, not SQL: its rows come
// from IB_RESULTS_SQL through src/data/compare-rows.ts.

import type {WinPolicy} from "../../src/lib/hsii.js";
import type {AppointmentPartners} from "../../src/lib/stss.js";
import {exactMean, humansPooledSql} from "./sotopia.js";
import {STSS_CONVERSATIONS_SQL} from "./stss.js";

/** The rater name of the pooled human annotators, as `report sotopia --rater humans` and the agreement page call them. */
export const POOLED_HUMANS = "humans";

/** The file name an episode or score was imported from: what `source=` names. */
const SOURCE_NAME = (alias: string) => `regexp_extract(${alias}.path, '[^/\\\\]+$')`;

/**
 * A task's characters (profile ids, else names, else seat numbers), sorted: with the scenario, what SOTOPIA calls a task (§7).
 * A list sorted after aggregating, not string_agg(… ORDER BY …): an ordered aggregate sorts group by group, and at 100k
 * episodes took 8 of the rows' 16 s; both sort the same texts the same way.
 */
const CHARACTERS = "array_to_string(list_sort(list(coalesce(q.agent_ref, q.character, q.agent::VARCHAR))), ' & ')";

/**
 * A query in steps: each step's result is a table the later steps and the
 * last query read by its name. As one query (oneQuery) the steps are CTEs;
 * staged (loaders/cli/compare-stage.ts) each becomes a temporary table first,
 * which is what lets the SOTOPIA rows of a million episodes fit DuckDB's 1 GiB:
 * as one query its aggregate and joins ran out of memory together without
 * spilling, while each alone fits.
 */
export interface StepwiseQuery {
  steps: readonly {name: string; sql: string}[];
  last: string;
}

/** The steps as CTEs of one query. */
export const oneQuery = (q: StepwiseQuery): string =>
  q.steps.length ? `WITH ${q.steps.map((s) => `${s.name} AS (${s.sql})`).join(",\n")}\n${q.last}` : q.last;

/** A SOTOPIA row's columns from a score `v` and its seat `s`. */
const SOTOPIA_ROW = `v.episode_id, s.task, s.instance,
       s.scenario AS cluster, v.dimension AS metric, 'continuous' AS kind, v.value::DOUBLE AS value,
       s.model, v.rater, CASE WHEN v.run_id = '' THEN 'imported' ELSE v.run_id END AS run, v.source,
       NULL::VARCHAR AS setting, NULL::VARCHAR AS memory, NULL::VARCHAR AS cot`;

/**
 * SOTOPIA: the seven dimensions and overall (their mean, for an instance rated
 * on all seven) per (episode, seat, rater, run). A rater's repeated responses
 * within one run are averaged. task = scenario, characters, partner model and
 * seat; instance = episode and seat; cluster = scenario.
 */
export const SOTOPIA_COMPARE_STEPS: StepwiseQuery = {
  steps: [
    {
      name: "compare_sotopia_keyed",
      sql: `
  WITH cast_of AS (
    -- Each episode's characters and seats, gathered once per episode: a seat's partners and the task's characters are read
    -- from them, with no join of the participants with themselves (at 1M episodes its 4M rows, grouped by seat, did not
    -- fit the loaders' 1 GiB).
    SELECT q.episode_id, list(coalesce(q.agent_ref, q.character, q.agent::VARCHAR)) AS refs, list({agent: q.agent, model: q.model}) AS seats
    FROM participants q JOIN episodes e ON e.episode_id = q.episode_id
    WHERE e.benchmark = 'sotopia'
    GROUP BY q.episode_id
  ),
  seat AS (
    SELECT p.episode_id, p.agent, p.model,
           array_to_string(list_sort(list_transform(list_filter(c.seats, s -> s.agent <> p.agent), s -> s.model)), ' + ') AS partner,
           coalesce(e.scenario_id, e.scenario, '') AS scenario,
           array_to_string(list_sort(c.refs), ' & ') AS characters
    FROM participants p
    JOIN cast_of c ON c.episode_id = p.episode_id
    JOIN episodes e ON e.episode_id = p.episode_id
  )
  -- The item keys are built once per seat, not once per score.
  SELECT *, scenario || ' | ' || characters || ' | partner ' || partner || ' | seat ' || agent AS task, episode_id || ' | seat ' || agent AS instance FROM seat`,
    },
    {
      name: "compare_sotopia_scored",
      sql: `
  -- The file names once per source, not once per score.
  WITH named AS (SELECT source_id, ${SOURCE_NAME("sources")} AS source FROM sources)
  SELECT r.episode_id, r.agent, r.rater, r.run_id, r.dimension, avg(r.value) AS value, any_value(s.source) AS source
  FROM ratings r
  JOIN named s ON s.source_id = r.source_id
  JOIN dimensions d ON d.benchmark = 'sotopia' AND d.dimension = r.dimension
  WHERE r.episode_id IN (SELECT episode_id FROM compare_sotopia_keyed)
  GROUP BY r.episode_id, r.agent, r.rater, r.run_id, r.dimension
  UNION ALL BY NAME
  -- The annotators pooled: one score per item whatever run or response each came in, so no run and no one source.
  SELECT episode_id, agent, '${POOLED_HUMANS}' AS rater, NULL::VARCHAR AS run_id, dimension, value, NULL::VARCHAR AS source
  FROM (${humansPooledSql(`(
    SELECT r.episode_id, r.agent, r.rater, r.rater_kind, r.dimension, ${exactMean("r.value")} AS value
    FROM ratings r
    JOIN dimensions d ON d.benchmark = 'sotopia' AND d.dimension = r.dimension
    WHERE r.rater_kind = 'human' AND r.episode_id IN (SELECT episode_id FROM compare_sotopia_keyed)
    GROUP BY r.episode_id, r.agent, r.rater, r.rater_kind, r.dimension)`)})`,
    },
    {
      name: "compare_sotopia_overall",
      sql: `
  -- An exact mean (loaders/queries/sotopia.ts): the pooled annotators' scores are fractions, whose DOUBLE sum would depend
  -- on the order threads add them in, and the packs must be the same bytes on every build.
  SELECT episode_id, agent, rater, run_id, 'overall' AS dimension, ${exactMean("value")} AS value, any_value(source) AS source
  FROM compare_sotopia_scored
  GROUP BY episode_id, agent, rater, run_id
  HAVING count(*) = (SELECT count(*) FROM dimensions WHERE benchmark = 'sotopia')`,
    },
  ],
  last: `
SELECT ${SOTOPIA_ROW}
FROM (SELECT * FROM compare_sotopia_scored UNION ALL BY NAME SELECT * FROM compare_sotopia_overall) v
JOIN compare_sotopia_keyed s ON s.episode_id = v.episode_id AND s.agent = v.agent
LEFT JOIN dimensions d ON d.benchmark = 'sotopia' AND d.dimension = v.dimension
ORDER BY coalesce(d.ord, 1000), v.episode_id, s.agent, v.rater, v.run_id
`,
};

/**
 * The last query of SOTOPIA_COMPARE_STEPS, unordered, with each row's place in
 * its order as seq (1, 2, …). The scores are numbered before the seats' texts
 * join them, so the sort carries a few short columns, not the task and
 * instance texts: at a million episodes the last query's sort of 18M wide rows
 * spilled, and took 134 of the rows' 184 CPU-s under the loaders' 1 GiB.
 */
export const SOTOPIA_COMPARE_NUMBERED_LAST = `
WITH numbered AS (
  SELECT row_number() OVER (ORDER BY coalesce(d.ord, 1000), v.episode_id, v.agent, v.rater, v.run_id) AS seq, v.*
  FROM (SELECT * FROM compare_sotopia_scored UNION ALL BY NAME SELECT * FROM compare_sotopia_overall) v
  -- Only the scores of a seat are rows, as the last query's join keeps them.
  SEMI JOIN compare_sotopia_keyed s ON s.episode_id = v.episode_id AND s.agent = v.agent
  LEFT JOIN dimensions d ON d.benchmark = 'sotopia' AND d.dimension = v.dimension
)
SELECT v.seq, ${SOTOPIA_ROW}
FROM numbered v
JOIN compare_sotopia_keyed s ON s.episode_id = v.episode_id AND s.agent = v.agent
`;

/** The SOTOPIA rows as one query (what the steps compute, in the same order). */
export const SOTOPIA_COMPARE_SQL = oneQuery(SOTOPIA_COMPARE_STEPS);

/**
 * LIFELONG-SOTOPIA: BEL and GOAL per (episode, seat, rater, run). task = chain
 * position of the same pair of characters in the same scenario and seat (the
 * chain id names the pair); cluster = scenario.
 */
export const LIFELONG_COMPARE_SQL = `
WITH seat AS (
  SELECT e.episode_id, p.agent, p.model, e.chain_index, coalesce(e.settings->>'memory_mode', 'unknown') AS memory,
         coalesce(any_value(e.scenario_id), any_value(e.scenario), '') AS scenario,
         ${CHARACTERS} AS characters
  FROM episodes e
  JOIN participants p ON p.episode_id = e.episode_id
  JOIN participants q ON q.episode_id = e.episode_id
  WHERE e.benchmark = 'lifelong-sotopia'
  GROUP BY e.episode_id, p.agent, p.model, e.chain_index, memory
)
SELECT r.episode_id,
       s.characters || ' | ' || s.scenario || ' | position ' || s.chain_index || ' | seat ' || s.agent AS task,
       r.episode_id || ' | seat ' || s.agent AS instance,
       s.scenario AS cluster, r.dimension AS metric, 'continuous' AS kind, avg(r.value)::DOUBLE AS value,
       s.model, r.rater, CASE WHEN r.run_id = '' THEN 'imported' ELSE r.run_id END AS run, any_value(${SOURCE_NAME("src")}) AS source,
       NULL::VARCHAR AS setting, s.memory, NULL::VARCHAR AS cot
FROM ratings r
JOIN seat s ON s.episode_id = r.episode_id AND s.agent = r.agent
JOIN sources src ON src.source_id = r.source_id
WHERE r.dimension IN ('believability', 'goal')
GROUP BY ALL
ORDER BY metric, r.episode_id, instance, r.rater, run
`;

/** A verdict's points (src/lib/hsii.ts POINTS): win 1, tie 0.5, loss 0. */
const POINTS_OF = (v: string) => `CASE ${v} WHEN 'win' THEN 1.0 WHEN 'tie' THEN 0.5 WHEN 'loss' THEN 0.0 END`;

/**
 * Each policy's win score of a comparison and the orders it needs, as
 * src/lib/hsii.ts winScore: a comparison without them is no value, so the
 * case is not a pair for that metric (METRICS.md § HSII, as `report hsii`).
 */
const WIN_SCORE: Record<WinPolicy, {needs: string; value: string}> = {
  mean: {needs: "forward IS NOT NULL AND swapped IS NOT NULL", value: `(${POINTS_OF("forward")} + ${POINTS_OF("swapped")}) / 2`},
  strict: {needs: "forward IS NOT NULL AND swapped IS NOT NULL", value: "CASE WHEN forward = 'win' AND swapped = 'win' THEN 1.0 ELSE 0.0 END"},
  first: {needs: "forward IS NOT NULL", value: POINTS_OF("forward")},
};

/**
 * HSII: stage 1 (parsed) and stage 2 (target correct), which no rater gives,
 * and each judging rater's stage-3 and stage-4 win scores under `policy`
 * (default `mean`), named in the metric (`stage3_win (mean)`) so the CLI and
 * the Compare page say which policy they show. Wins are the n3 / n4 of
 * METRICS.md: only cases among the n2 (parsed, correct target) have them.
 * Only `strict` scores are 0/1; the others are compared as scores.
 * task = case and cluster; cluster = the case's cluster.
 */
export function hsiiCompareSql(policy: WinPolicy = "mean"): string {
  const win = WIN_SCORE[policy];
  return `
WITH cases AS (
  SELECT c.episode_id, c.case_id, coalesce(c.cluster, '') AS cluster, c.cot, c.parsed, c.target_correct, p.model, ${SOURCE_NAME("src")} AS source
  FROM hsii_cases c
  JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1
  JOIN episodes e ON e.episode_id = c.episode_id
  JOIN sources src ON src.source_id = e.source_id
),
judged AS (
  SELECT j.episode_id, j.rater, j.stage,
         max(j.verdict) FILTER (WHERE j.position = 'forward') AS forward,
         max(j.verdict) FILTER (WHERE j.position = 'swapped') AS swapped
  FROM hsii_judgments j
  SEMI JOIN cases c ON c.episode_id = j.episode_id AND c.parsed AND c.target_correct
  GROUP BY j.episode_id, j.rater, j.stage
),
outcomes AS (
  SELECT episode_id, NULL::VARCHAR AS rater, 1 AS ord, 'stage1_parsed' AS metric, 'binary' AS kind, parsed::INTEGER::DOUBLE AS value FROM cases
  UNION ALL
  SELECT episode_id, NULL::VARCHAR, 2, 'stage2_target_correct', 'binary', target_correct::INTEGER::DOUBLE FROM cases
  UNION ALL
  SELECT episode_id, rater, stage, 'stage' || stage || '_win (${policy})', '${policy === "strict" ? "binary" : "continuous"}', ${win.value}
  FROM judged WHERE ${win.needs}
)
SELECT c.episode_id, c.case_id || ' | ' || c.cluster AS task, c.episode_id AS instance, c.cluster, o.metric, o.kind, o.value,
       c.model, o.rater, NULL::VARCHAR AS run, c.source, NULL::VARCHAR AS setting, NULL::VARCHAR AS memory,
       CASE WHEN c.cot THEN 'with' ELSE 'without' END AS cot
FROM outcomes o JOIN cases c USING (episode_id)
ORDER BY o.ord, o.metric, c.episode_id, o.rater
`;
}

/** The HSII rows under the default win policy, `mean`. */
export const HSII_COMPARE_SQL = hsiiCompareSql();

/**
 * STSS conversation runs: success (every goal condition holds) per
 * conversation and level, and each goal condition's verdict. task = the task
 * and its conversation scenario (the conversation id, shared by every model
 * and architecture run on it), and the condition for condition rows;
 * setting = the architecture; cluster = the task. Under `partners` = target
 * (the default, as `report stss`: docs/formats.md, STSS §3.2) an appointment
 * conversation run that is not between the performer and a target person is
 * no row, so it neither counts nor pairs with another model's run of the same
 * conversation id that did reach the target. Which runs those are is
 * STSS_CONVERSATIONS_SQL's off_target, the rule the STSS page and report read.
 */
export function stssCompareSql(partners: AppointmentPartners = "target"): string {
  const offTarget = partners === "all" ? "" : `
    WHERE c.episode_id NOT IN (SELECT episode_id FROM (${STSS_CONVERSATIONS_SQL}) WHERE off_target)`;
  return `
WITH verdicts AS (
  SELECT r.episode_id, split_part(r.dimension, ':', 1) AS level, split_part(r.dimension, ':', 2) AS condition, r.rater, r.run_id,
         avg(r.value) AS value, any_value(${SOURCE_NAME("src")}) AS source
  FROM ratings r
  JOIN sources src ON src.source_id = r.source_id
  WHERE split_part(r.dimension, ':', 1) IN ('conversation', 'summary') AND r.episode_id IN (SELECT episode_id FROM stss_conversations)
  GROUP BY ALL
),
runs AS (
  SELECT c.episode_id, c.task_id, c.conversation_id, c.architecture, p.model FROM stss_conversations c JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1${offTarget}
),
rows AS (
  SELECT episode_id, level, rater, run_id, level || ' success' AS metric, 1 AS ord, NULL::VARCHAR AS condition,
         CASE WHEN bool_and(value = 1) THEN 1.0 ELSE 0.0 END AS value, any_value(source) AS source
  FROM verdicts GROUP BY episode_id, level, rater, run_id
  UNION ALL
  SELECT episode_id, level, rater, run_id, level || ' goal conditions', 2, condition, CASE WHEN value = 1 THEN 1.0 ELSE 0.0 END, source
  FROM verdicts
)
SELECT v.episode_id, r.task_id || ' | ' || r.conversation_id || coalesce(' | ' || v.condition, '') AS task, v.episode_id || coalesce(' | ' || v.condition, '') AS instance,
       r.task_id AS cluster, v.metric, 'binary' AS kind, v.value, r.model, v.rater,
       CASE WHEN v.run_id = '' THEN 'imported' ELSE v.run_id END AS run, v.source, r.architecture AS setting,
       NULL::VARCHAR AS memory, NULL::VARCHAR AS cot
FROM rows v JOIN runs r USING (episode_id)
ORDER BY v.level, v.ord, v.episode_id, v.condition, v.rater, v.run_id
`;
}

/** The STSS rows under the default appointment rule: only conversations with the target count. */
export const STSS_COMPARE_SQL = stssCompareSql();

/** The source file of each InformativeBench result, for `source=`. */
export const IB_SOURCES_SQL = `
SELECT r.episode_id, ${SOURCE_NAME("src")} AS source
FROM ib_results r JOIN episodes e USING (episode_id) JOIN sources src ON src.source_id = e.source_id
`;
