// The Compare page's first view and pickers (src/client/compare-summary.ts):
// the values of each side key per benchmark, counted in SQL, and the default
// comparison with the page's default options, paired in DuckDB and tested by
// the CLI's code (loaders/cli/compare-pairs.ts, src/lib/compare.ts) on the
// same redacted rows the page's worker reads. A few kilobytes at any size.

import {modelPairsSql, pairInStore} from "../../loaders/cli/compare-pairs.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {benchmarkChoices, checkedPairing, countedDefaultSides, COMPARE_BENCHMARKS, SIDE_KEYS, comparePaired, compareRuns, matchedKeys, sidesWhere, type CompareRow, type Comparison, type KeyCounts, type ModelPairCount} from "../lib/compare.js";
import {forPage, PAGE_OPTIONS, summaryJson, type CompareRequest, type CompareSummary} from "../client/compare-summary.js";
import {COMPARE_COLUMNS, stageCompareRows} from "./compare-rows.js";
import {withStore} from "./store.js";

/** The request's comparison over the staged rows, as `sociometer compare` computes it (InformativeBench from rows, the rest paired in SQL). */
async function compareStaged(store: Store, request: CompareRequest): Promise<Comparison> {
  const {benchmark, a, b, options} = request;
  const where = sidesWhere(a, b);
  const rowsSql = `SELECT ${COMPARE_COLUMNS.join(", ")} FROM compare_rows WHERE benchmark = ? AND ${where.sql} ORDER BY seq`;
  const params = [benchmark, ...where.params];
  if (benchmark === "informativebench" || options.unpaired) return compareRuns(benchmark, await rows<CompareRow>(store.conn, rowsSql, params), a, b, options);
  const {paired, matchedPresent, shared} = await pairInStore(store.conn, rowsSql, params, a, b, checkedPairing(a, b), matchedKeys(a, b));
  return comparePaired(benchmark, paired, a, b, options, matchedPresent, shared);
}

const summary = await withStore(async (store): Promise<CompareSummary> => {
  await stageCompareRows(store, COMPARE_BENCHMARKS);
  const groups = await rows<KeyCounts>(store.conn, "SELECT benchmark, model, rater, run, source, setting, memory, cot, count(*)::INTEGER AS rows FROM compare_rows GROUP BY ALL");
  const models = await rows<{benchmark: string; model: string; n: number}>(store.conn,
    "SELECT benchmark, model, count(DISTINCT episode_id)::INTEGER AS n FROM compare_rows WHERE model IS NOT NULL GROUP BY ALL");
  const raters = await rows<{benchmark: string; rater: string; n: number}>(store.conn,
    "SELECT benchmark, rater, count(*)::INTEGER AS n FROM compare_rows WHERE rater IS NOT NULL GROUP BY ALL");
  const pairs: (ModelPairCount & {benchmark: string})[] = [];
  for (const benchmark of COMPARE_BENCHMARKS) {
    const counted = await countedDefaultSides(benchmark, models.filter((m) => m.benchmark === benchmark), raters.filter((r) => r.benchmark === benchmark),
      (only) => rows<ModelPairCount>(store.conn, modelPairsSql("SELECT * FROM compare_rows WHERE benchmark = ?", only?.length ?? 0), ([benchmark] as string[]).concat(only ?? [])));
    for (const p of counted.pairs) pairs.push({...p, benchmark});
  }
  const human = await rows<{rater: string}>(store.conn, "SELECT DISTINCT rater FROM ratings WHERE rater_kind = 'human'");
  const choices = benchmarkChoices(groups, models, raters, pairs, new Set(human.map((h) => h.rater)));
  if (!choices.length) return {choices, first: null};
  const request: CompareRequest = {benchmark: choices[0].benchmark, a: choices[0].defaults.a, b: choices[0].defaults.b, options: {...PAGE_OPTIONS}};
  // One model only leaves both default sides alike: nothing to draw first; the page's worker says why, as the CLI does.
  if (SIDE_KEYS.every((k) => request.a[k] === request.b[k])) return {choices, first: null};
  return {choices, first: {request, comparison: forPage(await compareStaged(store, request))}};
});

process.stdout.write(summaryJson(summary));
