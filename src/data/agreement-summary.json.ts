// What the agreement page draws before its instance rows arrive: the raters
// and dimensions that data/agreement-rows.parquet numbers, what the store
// holds (the coverage sentences of `report agreement`), and the page's first
// view (default judge against the humans, k = 5, sd of the dimension)
// computed here by the same engine the page's worker runs. A few kilobytes at
// any store size; rater names redacted as in every page data file.

import type {DuckDBConnection} from "@duckdb/node-api";
import {AGREEMENT_COLUMNS_SQL, RATER_COVERAGE_SQL} from "../../loaders/queries/agreement.js";
import {BENCHMARK_COUNTS_SQL} from "../../loaders/queries/store-contents.js";
import {rows} from "../../loaders/store/db.js";
import {coverageText, type RaterCoverage} from "../lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../lib/dimensions.js";
import {columnsFromCodes, type CodedScores} from "../client/agreement-columns.js";
import {AgreementEngine} from "../client/agreement-engine.js";
import {defaultJudge, raterChoices, sameRater, START_BASIS, START_BINS, startingRaters, summaryJson, type AgreementSummary} from "../client/agreement.js";
import {redactedQuery} from "./redaction.js";
import {withStore} from "./store.js";

const CODED: (keyof CodedScores)[] = ["instance", "episode", "dimension_code", "played_human", "rater_code", "human", "value"];

/**
 * The numbered rows as typed arrays, filled chunk by chunk: read whole as JS
 * arrays of numbers (getColumnsObject) they took the loader past 2 GiB RSS at
 * a million episodes (5.6M rows, 2.09 GiB).
 */
async function codedColumns(conn: DuckDBConnection): Promise<CodedScores> {
  const [[count]] = (await conn.runAndReadAll("SELECT count(*) FROM agreement_columns")).getRows() as [[bigint]];
  const rows = Number(count);
  const coded = Object.fromEntries(CODED.map((name) => [name, name === "value" ? new Float64Array(rows) : new Int32Array(rows)])) as Record<keyof CodedScores, Float64Array | Int32Array>;
  const result = await conn.stream(`SELECT ${CODED.join(", ")} FROM agreement_columns`);
  let at = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    if (at + chunk.rowCount > rows) throw new Error(`agreement-summary: agreement_columns holds ${rows} rows but more were read`);
    for (const [c, name] of CODED.entries()) {
      const column = coded[name];
      const vector = chunk.getColumnVector(c);
      for (let i = 0; i < chunk.rowCount; i++) column[at + i] = vector.getItem(i) as number;
    }
    at += chunk.rowCount;
  }
  if (at !== rows) throw new Error(`agreement-summary: agreement_columns holds ${rows} rows but ${at} were read`);
  return coded;
}

const summary = await withStore(async ({conn}): Promise<AgreementSummary> => {
  // Once: the codes and the names they stand for come from the same rows (a temporary table, as the store is open read-only).
  await conn.run(`CREATE TEMP TABLE agreement_columns AS ${AGREEMENT_COLUMNS_SQL}`);
  const coded = await codedColumns(conn);
  const names = await rows<{what: string; code: number; name: string; rater_kind: string | null; n: number; lo: number | null; hi: number | null}>(conn, await redactedQuery(conn, `
    WITH c AS (SELECT * FROM agreement_columns)
    SELECT 'rater' AS what, rater_code AS code, any_value(rater) AS name, any_value(rater_kind) AS rater_kind, count(*)::INTEGER AS n, NULL::DOUBLE AS lo, NULL::DOUBLE AS hi
    FROM c GROUP BY rater_code
    UNION ALL
    SELECT 'dimension', dimension_code, any_value(dimension), NULL, count(*)::INTEGER, any_value(lo), any_value(hi)
    FROM c GROUP BY dimension_code
    ORDER BY what, code`));
  const raters = names.filter((r) => r.what === "rater").map((r) => ({rater: r.name, rater_kind: r.rater_kind ?? "", instances: r.n}));
  const dimensions = names.filter((r) => r.what === "dimension").map((r) => ({key: r.name, lo: r.lo ?? NaN, hi: r.hi ?? NaN}));
  const coverage = coverageText(await rows<RaterCoverage>(conn, `SELECT * FROM (${await redactedQuery(conn, RATER_COVERAGE_SQL)}) ORDER BY rater_kind = 'human', episodes DESC, rater`));
  const [sotopia] = await rows<{episodes: number; synthetic: number}>(conn, `SELECT episodes, synthetic FROM (${BENCHMARK_COUNTS_SQL}) WHERE benchmark = 'sotopia'`);
  const columns = columnsFromCodes(coded, raters.map((r) => r.rater), dimensions);
  const data = {raters, humans: raters.filter((r) => r.rater_kind === "human").length};
  const {a, b} = startingRaters(raterChoices(data), defaultJudge(data));
  const start = a === null || b === null || sameRater(a, b) ? null : {a, b, bins: START_BINS, basis: START_BASIS};
  let episodes = 0;
  for (const e of columns.episode) episodes = Math.max(episodes, e + 1);
  return {
    ...data, dimensions, episodes, instances: columns.rowStart.length - 1, rows: columns.value.length, coverage, sotopia: sotopia ?? null, start,
    view: start && new AgreementEngine(columns, SOTOPIA_DIMENSIONS.map((d) => d.key)).view(start),
  };
});

process.stdout.write(summaryJson(summary));
