// What the store holds, for the overview page (src/data/overview.parquet.ts and
// the pages' first-view packs): one long table of counts.
// section = 'source' (one row per imported file, named by its base name only),
// 'benchmark', 'model' (per benchmark) or 'rater' (per benchmark). A column
// that does not apply to a section is NULL. Absolute paths never leave the store.
//
// Episodes are evaluated episodes only; a benchmark's definitions and inputs
// (STSS tasks, InformativeBench schedules) are counted apart in `inputs`, and
// seats whose text comes from the dataset are not models: the rule is in
// store-contents.ts, shared with `sociometer status`.

import {BENCHMARK_COUNTS_SQL, MODEL_COUNTS_SQL, benchmarkOfSql, evaluatedSql} from "./store-contents.js";

/** Sources, benchmarks, models and raters with their counts, one section each, in the page's order. */
export const OVERVIEW_SQL = `
WITH
kinds AS (
  SELECT episode_id, benchmark, synthetic, ${evaluatedSql("episodes")} AS evaluated FROM episodes
),
message_counts AS (
  SELECT episode_id, count(*) AS messages FROM messages GROUP BY episode_id
),
score_counts AS (
  SELECT episode_id, count(*) AS scores FROM ratings GROUP BY episode_id
),
-- Episodes a source contributed: the ones it holds, and the ones its scores rate.
source_episodes AS (
  SELECT source_id, episode_id FROM episodes
  UNION
  SELECT source_id, episode_id FROM ratings
),
src AS (
  SELECT 'source' AS section,
         coalesce(string_agg(DISTINCT ${benchmarkOfSql("k.benchmark")}, ', '), '') AS benchmark,
         parse_filename(s.path) AS name,
         s.format AS kind,
         count(k.episode_id) FILTER (WHERE k.evaluated)::INTEGER AS episodes,
         count(k.episode_id) FILTER (WHERE k.evaluated AND k.synthetic)::INTEGER AS synthetic,
         count(k.episode_id) FILTER (WHERE NOT k.evaluated)::INTEGER AS inputs,
         count(k.episode_id) FILTER (WHERE NOT k.evaluated AND k.synthetic)::INTEGER AS inputs_synthetic,
         s.rows::BIGINT AS records,
         (SELECT count(*) FROM ratings r WHERE r.source_id = s.source_id)::BIGINT AS scores,
         s.rejected::INTEGER AS rejected,
         strftime(s.imported_at, '%Y-%m-%d %H:%M') AS imported_at
  FROM sources s
  LEFT JOIN source_episodes se USING (source_id)
  LEFT JOIN kinds k ON k.episode_id = se.episode_id
  GROUP BY s.source_id, s.path, s.format, s.rows, s.rejected, s.imported_at
),
-- Messages, scores and transcripts (evaluated episodes with at least one message) per benchmark.
volume AS (
  SELECT ${benchmarkOfSql("k.benchmark")} AS benchmark,
         coalesce(sum(mc.messages), 0)::BIGINT AS messages,
         coalesce(sum(sc.scores), 0)::BIGINT AS scores,
         count(mc.episode_id) FILTER (WHERE k.evaluated)::INTEGER AS transcripts
  FROM kinds k
  LEFT JOIN message_counts mc USING (episode_id)
  LEFT JOIN score_counts sc USING (episode_id)
  GROUP BY 1
),
bench AS (
  SELECT 'benchmark' AS section, c.benchmark, c.benchmark AS name,
         c.episodes, c.synthetic, c.inputs, c.inputs_synthetic, v.messages, v.scores, v.transcripts
  FROM (${BENCHMARK_COUNTS_SQL}) c JOIN volume v USING (benchmark)
),
model AS (
  SELECT 'model' AS section, benchmark, model AS name, episodes, synthetic, seats
  FROM (${MODEL_COUNTS_SQL})
),
rater AS (
  SELECT 'rater' AS section, e.benchmark, r.rater AS name, r.rater_kind AS kind,
         count(DISTINCT r.episode_id)::INTEGER AS episodes,
         count(DISTINCT r.episode_id) FILTER (WHERE e.synthetic)::INTEGER AS synthetic,
         count(*)::BIGINT AS scores
  FROM ratings r JOIN episodes e USING (episode_id)
  GROUP BY e.benchmark, r.rater, r.rater_kind
)
SELECT section, benchmark, name, kind, episodes, synthetic,
       inputs, inputs_synthetic,
       records, messages, transcripts, seats, scores, rejected, imported_at FROM (
  SELECT * FROM src
  UNION ALL BY NAME SELECT * FROM bench
  UNION ALL BY NAME SELECT * FROM model
  UNION ALL BY NAME SELECT * FROM rater
)
ORDER BY section, benchmark, episodes DESC, name
`;

/**
 * The overview without its per-file section, read from OVERVIEW_SQL's result
 * `source`: benchmarks, models and raters, which grow with what the store
 * holds, not with how many files were imported (issue 18). What every page's
 * first view reads.
 */
export const overviewWithoutSourcesSql = (source: string): string => `
SELECT * FROM ${source} WHERE section <> 'source'
ORDER BY section, benchmark, episodes DESC, name
`;

/**
 * The imported files grouped by benchmark and format, from OVERVIEW_SQL's
 * result `source`: one row per group with the files' counts added up (an
 * episode held by one file and scored by another counts in both) and the
 * first and last import. Bounded by benchmarks × formats however many files.
 */
export const sourceGroupsSql = (source: string): string => `
SELECT benchmark, kind, count(*)::INTEGER AS files,
       sum(records)::BIGINT AS records, sum(rejected)::BIGINT AS rejected,
       sum(episodes)::BIGINT AS episodes, sum(synthetic)::BIGINT AS synthetic,
       sum(inputs)::BIGINT AS inputs, sum(inputs_synthetic)::BIGINT AS inputs_synthetic,
       sum(scores)::BIGINT AS scores,
       min(imported_at) AS first_imported, max(imported_at) AS last_imported
FROM ${source} WHERE section = 'source'
GROUP BY benchmark, kind
ORDER BY benchmark, kind
`;

/** Every imported file, from OVERVIEW_SQL's result `source`: read on demand, since it grows with imports. */
export const sourcesSql = (source: string): string => `
SELECT * FROM ${source} WHERE section = 'source'
ORDER BY section, benchmark, episodes DESC, name
`;
