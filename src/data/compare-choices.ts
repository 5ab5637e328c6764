// The Compare page's pickers and default sides (src/lib/compare.ts
// benchmarkChoices) from the compare rows staged in this process
// (compare-rows.ts, TEMP VIEW compare_rows): two passes over the rows,
// whatever the benchmarks and however the defaults are found.

import {modelPairsSql} from "../../loaders/cli/compare-pairs.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {benchmarkChoices, countedDefaultSides, COMPARE_BENCHMARKS, type BenchmarkChoices, type KeyCounts, type ModelPairCount} from "../lib/compare.js";

/** Every benchmark's choices over compare_rows; the view must be staged (stageCompareRows) first. */
export async function compareChoices(store: Store): Promise<BenchmarkChoices[]> {
  // One pass over the rows into their counts per side keys, metric and task: the key groups, the scores per rater and
  // every benchmark's items (what two models pair on) all come from it. The default sides count pairs of models once or
  // twice per benchmark, and each count was a pass over all of the benchmark's rows (issue 18: ~6 s at 1M, ~40 s when
  // the two largest models pair nothing). Tens of thousands of rows at 100k episodes (BENCHMARKS.md, compare-default).
  await store.conn.run(`CREATE OR REPLACE TEMP TABLE compare_keys AS
    SELECT benchmark, model, rater, run, source, setting, memory, cot, metric, task, count(*)::INTEGER AS rows FROM compare_rows GROUP BY ALL`);
  try {
    const groups = await rows<KeyCounts>(store.conn,
      "SELECT benchmark, model, rater, run, source, setting, memory, cot, sum(rows)::INTEGER AS rows FROM compare_keys GROUP BY ALL");
    // Episodes per model and episodes scored per rater in one pass: the default sides open on the rater that scored the most.
    const counts = await rows<{benchmark: string; model: string | null; rater: string | null; by_model: number; n: number}>(store.conn,
      `SELECT benchmark, model, rater, (1 - grouping(model))::INTEGER AS by_model, count(DISTINCT episode_id)::INTEGER AS n
       FROM compare_rows GROUP BY GROUPING SETS ((benchmark, model), (benchmark, rater))`);
    const models = counts.filter((c) => c.by_model && c.model !== null).map((c) => ({benchmark: c.benchmark, model: c.model!, n: c.n}));
    const raters = counts.filter((c) => !c.by_model && c.rater !== null).map((c) => ({benchmark: c.benchmark, rater: c.rater!, n: c.n}));
    const pairs: (ModelPairCount & {benchmark: string})[] = [];
    for (const benchmark of COMPARE_BENCHMARKS) {
      // An item is the same whether its rows are counted or not: pairing the counts pairs the rows.
      const counted = await countedDefaultSides(benchmark, models.filter((m) => m.benchmark === benchmark), raters.filter((r) => r.benchmark === benchmark),
        (only, rater) => rows<ModelPairCount>(store.conn, modelPairsSql("SELECT * FROM compare_keys WHERE benchmark = ?", only?.length ?? 0, rater !== undefined),
          ([benchmark] as string[]).concat(only ?? [], rater === undefined ? [] : [rater])));
      for (const p of counted.pairs) pairs.push({...p, benchmark});
    }
    const human = await rows<{rater: string}>(store.conn, "SELECT DISTINCT rater FROM ratings WHERE rater_kind = 'human'");
    return benchmarkChoices(groups, models, raters, pairs, new Set(human.map((h) => h.rater)));
  } finally {
    await store.conn.run("DROP TABLE IF EXISTS temp.compare_keys");
  }
}
