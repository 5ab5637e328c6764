// Data for the SOTOPIA page: the statistics table from DuckDB-wasm and the
// raters a reader can choose from (which one comes first is the library's
// defaultRater, shared with the CLI).

import type {SotopiaStatRow} from "../lib/sotopia.js";
import type {Database} from "./duckdb.js";

export interface RaterInfo {
  rater: string;
  rater_kind: string;
  /** Scores this rater gave on the seven dimensions (overall rows not counted). */
  ratings: number;
}

export interface SotopiaData {
  rows: SotopiaStatRow[];
  /** LLM raters first, then by number of scores, most first. */
  raters: RaterInfo[];
  /** Every model with a score from any rater, in name order. */
  models: string[];
}

/** Reads the statistics table (`sotopia_stats`, from data/sotopia-stats.parquet). */
export async function loadSotopiaStats(db: Database): Promise<SotopiaData> {
  const rows = await db.query<SotopiaStatRow>("SELECT * FROM sotopia_stats");
  const raters = await db.query<RaterInfo>(`
    SELECT * FROM (
      SELECT rater, any_value(rater_kind) AS rater_kind, sum(n) FILTER (WHERE dimension <> 'overall') AS ratings
      FROM sotopia_stats GROUP BY rater
    ) ORDER BY rater_kind = 'llm' DESC, ratings DESC, rater`);
  const models = (await db.query<{model: string}>("SELECT DISTINCT model FROM sotopia_stats ORDER BY model")).map((r) => r.model);
  return {rows, raters: raters.map((r) => ({...r, ratings: Number(r.ratings ?? 0)})), models};
}

/** How a rater is named in the rater menu and in the sentence under the table. */
export function raterLabel(r: RaterInfo): string {
  return `${r.rater} (${r.rater_kind}, ${r.ratings.toLocaleString("en-US")} scores)`;
}
