// The Compare page's first view and pickers (src/client/compare-summary.ts):
// the values of each side key per benchmark, counted in SQL, and the default
// comparison with the page's default options, paired in DuckDB and tested by
// the CLI's code (loaders/cli/compare-pairs.ts, src/lib/compare.ts) on the
// same redacted rows the page's worker reads. A few kilobytes at any size.

import {pairInStore} from "../../loaders/cli/compare-pairs.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {checkedPairing, COMPARE_BENCHMARKS, SIDE_KEYS, comparePaired, compareRuns, matchedKeys, sidesWhere, type CompareRow, type Comparison} from "../lib/compare.js";
import {forPage, PAGE_OPTIONS, summaryJson, type CompareRequest, type CompareSummary} from "../client/compare-summary.js";
import {compareChoices} from "./compare-choices.js";
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
  const choices = await compareChoices(store);
  if (!choices.length) return {choices, first: null};
  const request: CompareRequest = {benchmark: choices[0].benchmark, a: choices[0].defaults.a, b: choices[0].defaults.b, options: {...PAGE_OPTIONS}};
  // One model only leaves both default sides alike: nothing to draw first; the page's worker says why, as the CLI does.
  if (SIDE_KEYS.every((k) => request.a[k] === request.b[k])) return {choices, first: null};
  return {choices, first: {request, comparison: forPage(await compareStaged(store, request))}};
});

process.stdout.write(summaryJson(summary));
