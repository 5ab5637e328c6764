// What the store holds, counted the same way by the overview page
// (src/data/overview.parquet.ts) and `sociometer status`: which episodes were
// evaluated, which are a benchmark's definitions and inputs, and which
// participants are models (or people) that played.
//
// The rule. Two importers store a benchmark's own data as episodes so its
// reports can join them: STSS task definitions (benchmark `stss-task`, no
// participants: loaders/import/stss-tasks.ts) and InformativeBench Schedule
// inputs (`informativebench-schedule`, one participant per person of the
// schedule). Those people, and the speakers of an HSII case's dialogue history
// (loaders/import/hsii.ts), are stored with model = 'dataset': their words come
// from the benchmark's dataset, nobody generated them in the episode.
//   - A participant played the episode unless its model is 'dataset'; a player
//     is a model, or a person ('human', as in SOTOPIA's human-played episodes).
//   - An episode was evaluated when at least one participant played it. The
//     others (no player at all) are definitions and inputs: counted apart,
//     under the benchmark they feed (BENCHMARK_OF), never as episodes.
// The rule reads the data, not a list of formats, so a canonical or runner
// episode is an episode whatever benchmark name it carries.

/** participants.model of a seat whose text comes from the benchmark's dataset (not a model, not a person). */
export const DATASET_MODEL = "dataset";

/** SQL: true when participant row `p` played (its text was generated in the episode). */
export const playerSql = (p: string): string => `${p}.model <> '${DATASET_MODEL}'`;

/** SQL: true when episode row `e` was evaluated (someone played it); false for definitions and inputs. */
export const evaluatedSql = (e: string): string =>
  `EXISTS (SELECT 1 FROM participants pl WHERE pl.episode_id = ${e}.episode_id AND ${playerSql("pl")})`;

/** Store benchmarks that hold only another benchmark's definitions or inputs, and that benchmark. */
export const BENCHMARK_OF: Readonly<Record<string, string>> = {
  "stss-task": "stss",
  "informativebench-schedule": "informativebench",
};

/** SQL: the benchmark a row of `column` (episodes.benchmark) is counted under. */
export const benchmarkOfSql = (column: string): string =>
  `CASE ${column} ${Object.entries(BENCHMARK_OF).map(([from, to]) => `WHEN '${from}' THEN '${to}'`).join(" ")} ELSE ${column} END`;

/**
 * Per benchmark: evaluated episodes, definitions and inputs, and how many of
 * each are synthetic. Columns: benchmark, episodes, synthetic, inputs,
 * inputs_synthetic.
 */
export const BENCHMARK_COUNTS_SQL = `
  SELECT ${benchmarkOfSql("e.benchmark")} AS benchmark,
         count(*) FILTER (WHERE evaluated)::INTEGER AS episodes,
         count(*) FILTER (WHERE evaluated AND e.synthetic)::INTEGER AS synthetic,
         count(*) FILTER (WHERE NOT evaluated)::INTEGER AS inputs,
         count(*) FILTER (WHERE NOT evaluated AND e.synthetic)::INTEGER AS inputs_synthetic
  FROM (SELECT *, ${evaluatedSql("episodes")} AS evaluated FROM episodes) e
  GROUP BY 1
`;

/**
 * Per benchmark and model: the episodes it played and the seats it took in
 * them; 'dataset' seats left out. Columns: benchmark, model, episodes,
 * synthetic, seats.
 */
export const MODEL_COUNTS_SQL = `
  SELECT e.benchmark, p.model,
         count(DISTINCT p.episode_id)::INTEGER AS episodes,
         count(DISTINCT p.episode_id) FILTER (WHERE e.synthetic)::INTEGER AS synthetic,
         count(*)::BIGINT AS seats
  FROM participants p JOIN episodes e USING (episode_id)
  WHERE ${playerSql("p")}
  GROUP BY e.benchmark, p.model
`;

/**
 * The imported files grouped by folder and format, in the order they were
 * first imported: a folder of one log per episode is one line. Columns:
 * folder, format, files, rows, rejected, last_imported.
 */
export const SOURCE_GROUPS_SQL = `
  SELECT folder, format, count(*)::INTEGER AS files, sum(rows)::BIGINT AS rows, sum(rejected)::BIGINT AS rejected,
         max(imported_at)::VARCHAR AS last_imported
  FROM (SELECT *, regexp_replace(path, '[/\\\\][^/\\\\]*$', '') AS folder FROM sources)
  GROUP BY folder, format
  ORDER BY min(imported_at), folder, format
`;
