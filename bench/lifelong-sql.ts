// LIFELONG-SOTOPIA's checkpoint failure counts and first-view statistics
// (issue 18 asks for 100k episodes): the SQL of this branch against the SQL it
// replaces, in the same in-memory DuckDB, alternating, on N synthetic episodes
// (two agents, one LLM rater judging each agent in one to three runs, BEL, GOAL
// and eight checkpoints per run; one episode in seven without a checklist).
// Only the columns the queries read exist. Prints the runs, medians, ratios
// and the 1-minute load average.
//   node --import tsx bench/lifelong-sql.ts [episodes] [repeat]

import {loadavg} from "node:os";
import {DuckDBInstance} from "@duckdb/node-api";
import {CHECKPOINT_FAILURES_SQL, LIFELONG_INSTANCES_SQL, lifelongGroupsSql} from "../loaders/queries/lifelong.js";

const episodes = Number(process.argv[2] ?? 100_000);
const repeat = Number(process.argv[3] ?? 5);

// The queries as they were before this branch (main at cf7cf10).
const BEFORE_FAILURES_SQL = `
SELECT r.dimension, r.rater, p.model, coalesce(e.settings->>'memory_mode', 'unknown') AS memory_mode, e.chain_index,
       count(*)::INTEGER AS n, count(*) FILTER (WHERE r.value = 0)::INTEGER AS failed
FROM ratings r
JOIN episodes e USING (episode_id)
JOIN participants p ON p.episode_id = r.episode_id AND p.agent = r.agent
WHERE e.benchmark = 'lifelong-sotopia' AND r.dimension LIKE 'checkpoint:%'
GROUP BY ALL
ORDER BY 1, 2, 3, 4, 5`;
const BEFORE_GROUPS_SQL = (source: string) => `
WITH scored AS (SELECT *, penalised_bel AS penalised FROM ${source})
SELECT rater, model, memory_mode, chain_index, bool_or(harder) AS harder, sum(runs)::INTEGER AS runs,
       count(bel)::INTEGER AS bel_n, coalesce(sum(bel), 0)::DOUBLE AS bel_sum, coalesce(sum(bel * bel), 0)::DOUBLE AS bel_sum_sq,
       count(goal)::INTEGER AS goal_n, coalesce(sum(goal), 0)::DOUBLE AS goal_sum, coalesce(sum(goal * goal), 0)::DOUBLE AS goal_sum_sq,
       count(penalised)::INTEGER AS penalised_n, coalesce(sum(penalised), 0)::DOUBLE AS penalised_sum,
       coalesce(sum(penalised * penalised), 0)::DOUBLE AS penalised_sum_sq
FROM scored GROUP BY rater, model, memory_mode, chain_index ORDER BY rater, model, memory_mode, chain_index`;

const db = await DuckDBInstance.create(":memory:");
const conn = await db.connect();
await conn.run(`CREATE TABLE episodes AS SELECT 'e' || i AS episode_id, 'lifelong-sotopia' AS benchmark,
  json_object('memory_mode', ['full', 'summary', 'none'][1 + i % 3], 'harder', (i % 50) >= 40) AS settings,
  'c' || (i // 50) AS chain_id, 1 + i % 50 AS chain_index FROM range(${episodes}) t(i)`);
await conn.run(`CREATE TABLE participants AS SELECT 'e' || i AS episode_id, a AS agent, 'm' || (i % 4) AS model FROM range(${episodes}) t(i), range(1, 3) s(a)`);
await conn.run(`CREATE TABLE ratings AS
  WITH runs AS (SELECT 'e' || i AS episode_id, i, a AS agent, k AS run FROM range(${episodes}) t(i), range(1, 3) s(a), range(1 + (i + a) % 3) u(k))
  SELECT episode_id, agent, 'gpt-4' AS rater, 'llm' AS rater_kind, 'r' || run AS run_id, 'believability' AS dimension, (i * 7 + run) % 11 AS value FROM runs
  UNION ALL SELECT episode_id, agent, 'gpt-4', 'llm', 'r' || run, 'goal', (i * 3 + run) % 11 FROM runs
  UNION ALL SELECT episode_id, agent, 'gpt-4', 'llm', 'r' || run, 'checkpoint:paper:c' || c, CASE WHEN (i * 13 + c * 5 + run) % 9 = 0 THEN 0 ELSE 1 END
    FROM runs, range(8) v(c) WHERE i % 7 <> 0`);
await conn.run(`CREATE TABLE li AS ${LIFELONG_INSTANCES_SQL}`);
const counted = await conn.runAndReadAll("SELECT (SELECT count(*) FROM ratings) AS ratings, (SELECT count(*) FROM li) AS instances");
const [ratings, instances] = counted.getRows()[0]!;

const time = async (sql: string) => {
  const start = performance.now();
  await conn.runAndReadAll(sql);
  return performance.now() - start;
};
const cases = [
  {name: "checkpoint failures", before: BEFORE_FAILURES_SQL, after: CHECKPOINT_FAILURES_SQL},
  {name: "first-view groups (from the instance rows)", before: BEFORE_GROUPS_SQL("li"), after: lifelongGroupsSql("li")},
];
const loads: number[] = [];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${episodes} episodes, ${ratings} ratings, ${instances} instance rows; ${repeat} alternating runs each\n`);
console.log("| query | before ms (runs) | after ms (runs) | median after / before |\n| --- | --- | --- | ---: |");
for (const c of cases) {
  await time(c.before);
  await time(c.after);
  const before: number[] = [];
  const after: number[] = [];
  for (let k = 0; k < repeat; k++) {
    loads.push(loadavg()[0]!);
    before.push(await time(c.before));
    after.push(await time(c.after));
  }
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
  console.log(`| ${c.name} | ${median(before).toFixed(0)} (${list(before)}) | ${median(after).toFixed(0)} (${list(after)}) | ${(median(after) / median(before)).toFixed(2)} |`);
}
console.log(`\n1-minute load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
