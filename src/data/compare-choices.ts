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
    const models = await rows<{benchmark: string; model: string; n: number}>(store.conn,
      "SELECT benchmark, model, count(DISTINCT episode_id)::INTEGER AS n FROM compare_rows WHERE model IS NOT NULL GROUP BY ALL");
    const raters = ratersOf(groups);
    const pairs: (ModelPairCount & {benchmark: string})[] = [];
    for (const benchmark of COMPARE_BENCHMARKS) {
      // An item is the same whether its rows are counted or not: pairing the counts pairs the rows.
      const counted = await countedDefaultSides(benchmark, models.filter((m) => m.benchmark === benchmark), raters.filter((r) => r.benchmark === benchmark),
        (only) => rows<ModelPairCount>(store.conn, modelPairsSql("SELECT * FROM compare_keys WHERE benchmark = ?", only?.length ?? 0), ([benchmark] as string[]).concat(only ?? [])));
      for (const p of counted.pairs) pairs.push({...p, benchmark});
    }
    const human = await rows<{rater: string}>(store.conn, "SELECT DISTINCT rater FROM ratings WHERE rater_kind = 'human'");
    return benchmarkChoices(groups, models, raters, pairs, new Set(human.map((h) => h.rater)));
  } finally {
    await store.conn.run("DROP TABLE IF EXISTS temp.compare_keys");
  }
}

/** Scores per benchmark and rater: the rows of the rater's groups summed, instead of another pass over the rows. */
function ratersOf(groups: readonly KeyCounts[]): {benchmark: string; rater: string; n: number}[] {
  const byRater = new Map<string, {benchmark: string; rater: string; n: number}>();
  for (const g of groups) {
    if (g.rater === null || g.rater === undefined) continue;
    const key = `${g.benchmark}\u0000${g.rater}`;
    const entry = byRater.get(key) ?? {benchmark: g.benchmark, rater: g.rater, n: 0};
    entry.n += g.rows;
    byRater.set(key, entry);
  }
  return Array.from(byRater.values());
}
