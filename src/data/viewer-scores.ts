// The episode viewer's score index (format: src/client/episode-pack.ts): every
// SOTOPIA instance (episode, agent) a rater scored, one row each, grouped in
// blocks by the SOTOPIA page's cell (rater, dimension, model, partner). A link
// from a cell fetches that cell's blocks and no others, so filtering costs what
// the cell holds, not what the store holds. Block 0 lists the cells.
//
// The instances come from the very CTEs of SOTOPIA_STATS_SQL, which the page's
// n are counted from: the viewer's count equals a cell's n by construction,
// and test/data/viewer-scores.test.ts checks it on the samples.

import type {DuckDBConnection} from "@duckdb/node-api";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {SOTOPIA_STATS_SQL} from "../../loaders/queries/sotopia.js";
import {PackWriter} from "./viewer-pack.js";
import {redactedQuery} from "./redaction.js";
import type {ScoreIndexCell} from "../client/episodes.js";

/** Instances per block at most: a cell larger than this takes several, fetched together. */
export const SCORE_ROWS_PER_BLOCK = 4000;

/** Where SOTOPIA_STATS_SQL's own grouping starts: everything before it is the instance CTEs this index shares. */
const STATS_SELECT = "\nSELECT x.rater, x.rater_kind, s.task_id";

/** The file name a path ends in: what Compare's `source=` names (loaders/queries/compare.ts). */
const FILE_NAME = (path: string) => `regexp_extract(${path}, '[^/\\\\]+$')`;
/** A run as Compare names it: its id, or `imported` for scores that came with no run. */
const RUN_NAME = "CASE WHEN coalesce(r.run_id, '') = '' THEN 'imported' ELSE r.run_id END";

function instanceCtes(): string {
  const at = SOTOPIA_STATS_SQL.indexOf(STATS_SELECT);
  // A changed statistics query must change this index with it, never drift apart from it quietly.
  if (at < 0) throw new Error("viewer scores: SOTOPIA_STATS_SQL no longer ends in the grouping this index replaces");
  return SOTOPIA_STATS_SQL.slice(0, at);
}

/**
 * SQL: one row per scored instance of SOTOPIA_STATS_SQL (per_rater and
 * overall, joined to their seat as that query joins them), with its cell keys,
 * the instance's value (the rater's runs averaged; the annotators' mean for
 * `humans`), the episode's scenario, and the runs and files its scores came
 * from (for the viewer's run= and source= filters).
 */
export function sotopiaInstancesSql(): string {
  return `${instanceCtes()},
provenance AS (
  SELECT r.episode_id, r.agent, r.rater, list(DISTINCT ${RUN_NAME}) AS runs, list(DISTINCT ${FILE_NAME("src.path")}) AS sources
  FROM ratings r JOIN sources src ON src.source_id = r.source_id
  WHERE r.dimension IN (SELECT dimension FROM sotopia_dims)
  GROUP BY r.episode_id, r.agent, r.rater
  UNION ALL
  SELECT r.episode_id, r.agent, 'humans', list(DISTINCT ${RUN_NAME}), list(DISTINCT ${FILE_NAME("src.path")})
  FROM ratings r JOIN sources src ON src.source_id = r.source_id
  WHERE r.dimension IN (SELECT dimension FROM sotopia_dims) AND r.rater_kind = 'human'
  GROUP BY r.episode_id, r.agent
)
SELECT x.rater, x.rater_kind, x.dimension, s.model, s.partner, x.episode_id, x.agent, x.value,
       coalesce(e.scenario_id, '') AS scenario_id, coalesce(e.codename, '') AS codename,
       left(coalesce(e.scenario, ''), 120) AS scenario,
       list_sort(coalesce(pv.runs, [])) AS runs,
       list_sort(list_distinct(coalesce(pv.sources, []) || [${FILE_NAME("es.path")}])) AS sources
FROM (SELECT * FROM per_rater UNION ALL BY NAME SELECT * FROM overall) x
JOIN seat s ON s.episode_id = x.episode_id AND s.agent = x.agent
JOIN episodes e ON e.episode_id = x.episode_id
JOIN sources es ON es.source_id = e.source_id
LEFT JOIN provenance pv ON pv.episode_id = x.episode_id AND pv.agent = x.agent AND pv.rater = x.rater
`;
}


/**
 * The header's cells, compact: names once each in `names`, and each cell as
 * [rater, rater_kind, dimension, model, partner] indexes into them, then n,
 * its first block and its number of blocks. A few bytes a cell, since the
 * header is read whole when the viewer opens a filtered list.
 */
export interface ScoreHeaderCells {
  names: string[];
  cells: number[][];
}

/**
 * Writes the score index: each cell's instances in blocks of at most
 * SCORE_ROWS_PER_BLOCK, by episode id and seat, and the cells in the header.
 * Rows are redacted and turned into JSON by DuckDB and stream past in the
 * cells' order, so the loader holds one block at a time.
 */
export async function writeScorePack(conn: DuckDBConnection, out: NodeJS.WritableStream, {rowsPerBlock = SCORE_ROWS_PER_BLOCK} = {}): Promise<void> {
  const sql = await redactedQuery(conn, sotopiaInstancesSql());
  const keys = "r.rater, r.rater_kind, r.dimension, r.model, r.partner";
  // Two steps, as the viewer's packs: the instances into a scratch Parquet file (no order kept), then read
  // back sorted. The statistics' joins and the sort of every row's JSON in one query ran out of the
  // loaders' 1 GiB at 100k episodes.
  const scratch = mkdtempSync(join(tmpdir(), "sociometer-scores-"));
  const file = `'${join(scratch, "instances.parquet").replaceAll("'", "''")}'`;
  try {
    await conn.run("SET preserve_insertion_order = false");
    await conn.run(`COPY (${sql}) TO ${file} (FORMAT parquet, ROW_GROUP_SIZE 8192)`);
    await conn.run("RESET preserve_insertion_order");
    await writeSorted(await conn.stream(`SELECT ${keys}, to_json({episode_id: r.episode_id, agent: r.agent, value: r.value,
        scenario_id: r.scenario_id, codename: r.codename, scenario: r.scenario, runs: r.runs, sources: r.sources}) AS row
      FROM read_parquet(${file}) r ORDER BY ${keys}, r.episode_id, r.agent`), out, rowsPerBlock);
  } finally {
    rmSync(scratch, {recursive: true, force: true});
  }
}

/** Writes the pack from the instances' rows (cell keys, then the row's JSON), sorted by cell. */
async function writeSorted(result: Awaited<ReturnType<DuckDBConnection["stream"]>>, out: NodeJS.WritableStream, rowsPerBlock: number): Promise<void> {
  const writer = new PackWriter(["rows"]);
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  const named = (s: string) => {
    let i = nameIndex.get(s);
    if (i === undefined) nameIndex.set(s, (i = names.push(s) - 1));
    return i;
  };
  const cells: ScoreIndexCell[] = [];
  let rows: string[] = [];
  let cell: ScoreIndexCell | null = null;
  const endBlock = async () => {
    if (rows.length === 0) return;
    const block = rows;
    rows = [];
    cell!.blocks++;
    // Compressed on the thread pool while the next rows stream in; written in order.
    await writer.addParts([`[${block.join(",")}]`]);
  };
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    for (const [rater, rater_kind, dimension, model, partner, row] of chunk.getRows() as string[][]) {
      if (!cell || cell.rater !== rater || cell.rater_kind !== rater_kind || cell.dimension !== dimension || cell.model !== model || cell.partner !== partner) {
        await endBlock();
        cell = {rater, rater_kind, dimension, model, partner, n: 0, first: writer.blocks, blocks: 0};
        cells.push(cell);
      }
      rows.push(row);
      cell.n++;
      if (rows.length === rowsPerBlock) await endBlock();
    }
  }
  await endBlock();
  const header: ScoreHeaderCells = {
    names,
    cells: cells.map((c) => [named(c.rater), named(c.rater_kind), named(c.dimension), named(c.model), named(c.partner), c.n, c.first, c.blocks]),
  };
  await writer.finish(out, {kind: "scores", benchmark: "sotopia", instances: cells.reduce((s, c) => s + c.n, 0), ...header});
}
