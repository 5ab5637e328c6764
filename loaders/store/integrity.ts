// Rows no finished import or run accounts for: what an import killed while it
// committed can leave (import-journal.ts says how). Two kinds, both safe to
// remove because nothing that finished wrote them:
//  - rows whose source_id names no recorded source: an import records its
//    sources in the same transaction as its rows, and records them last;
//  - rows keyed by an episode that is not in the store (participants,
//    messages, ratings, benchmark tables), except rows of judge or episode
//    runs (run_id set), which are their runs' own and checked when files change.

import type {DuckDBConnection} from "@duckdb/node-api";

// Not db.ts's `rows`: db.ts opens stores through this module, and only INTEGER and BOOLEAN columns are read here.
const rows = async <T>(conn: DuckDBConnection, sql: string): Promise<T[]> => (await conn.runAndReadAll(sql)).getRowObjectsJS() as T[];

export interface Leftover {
  table: string;
  rows: number;
  why: "no recorded source" | "no episode";
}

interface KeyedTable {
  table_name: string;
  has_source: boolean;
  has_episode: boolean;
  has_run: boolean;
}

/** Every base table with a source_id or episode_id column, but the tables those columns point into. */
async function keyedTables(conn: DuckDBConnection): Promise<KeyedTable[]> {
  return rows<KeyedTable>(conn,
    `SELECT table_name, bool_or(column_name = 'source_id') AS has_source, bool_or(column_name = 'episode_id') AS has_episode,
            bool_or(column_name = 'run_id') AS has_run
     FROM information_schema.columns
     WHERE table_catalog = current_database() AND table_schema = 'main'
       AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_catalog = current_database() AND table_schema = 'main' AND table_type = 'BASE TABLE')
       AND table_name <> 'sources'
     GROUP BY table_name HAVING bool_or(column_name IN ('source_id', 'episode_id')) ORDER BY 1`);
}

/** The WHERE clauses that pick a table's leftovers, by kind. Ratings' run_id is '' for imported scores and never NULL. */
function leftoverFilters(t: KeyedTable): {why: Leftover["why"]; where: string}[] {
  const out: {why: Leftover["why"]; where: string}[] = [];
  if (t.has_source) out.push({why: "no recorded source", where: "source_id NOT IN (SELECT source_id FROM sources)"});
  if (t.has_episode && t.table_name !== "episodes") {
    const ofImports = t.has_run && t.table_name !== "ratings" ? " AND run_id IS NULL" : "";
    out.push({why: "no episode", where: `episode_id NOT IN (SELECT episode_id FROM episodes)${ofImports}`});
  }
  return out;
}

/**
 * Counts leftovers without changing the store. `thorough` reads every
 * episode-keyed table; without it only the source-keyed tables and ratings
 * are read, which is what a torn commit leaves most often and costs one
 * column scan each (for `status`).
 */
export async function findLeftovers(conn: DuckDBConnection, {thorough = true} = {}): Promise<Leftover[]> {
  const found: Leftover[] = [];
  for (const t of await keyedTables(conn)) {
    for (const f of leftoverFilters(t)) {
      if (!thorough && f.why === "no episode" && t.table_name !== "ratings") continue;
      const [{n}] = await rows<{n: number}>(conn, `SELECT count(*)::INTEGER AS n FROM ${t.table_name} WHERE ${f.where}`);
      if (n) found.push({table: t.table_name, rows: n, why: f.why});
    }
  }
  return found;
}

/**
 * Removes every leftover in one transaction and says what it removed. Rows
 * without a source go first: an episode they took away makes its messages
 * leftovers too, counted under "no episode".
 */
export async function removeLeftovers(conn: DuckDBConnection): Promise<Leftover[]> {
  const tables = await keyedTables(conn);
  const removed: Leftover[] = [];
  await conn.run("BEGIN TRANSACTION");
  try {
    for (const why of ["no recorded source", "no episode"] as const) {
      for (const t of tables) {
        for (const f of leftoverFilters(t).filter((f) => f.why === why)) {
          const result = await conn.run(`DELETE FROM ${t.table_name} WHERE ${f.where}`);
          const n = Number(result.rowsChanged);
          if (n) removed.push({table: t.table_name, rows: n, why});
        }
      }
    }
    await conn.run("COMMIT");
  } catch (e) {
    await conn.run("ROLLBACK");
    throw e;
  }
  return removed;
}

/** "136,416 ratings and 204,260 messages rows without an episode", for messages. */
export function describeLeftovers(found: readonly Leftover[]): string {
  return found.map((l) => `${l.rows.toLocaleString("en-US")} ${l.table} row${l.rows === 1 ? "" : "s"} with ${l.why}`).join(", ");
}
