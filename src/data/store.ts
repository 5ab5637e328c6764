// Shared by the data loaders in this folder: open the store read-only, run one
// query, write its result as Parquet to stdout (the loader contract).

import {existsSync, mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {basename, join} from "node:path";
import {defaultStorePath, type Store} from "../../loaders/store/db.js";
import {openStoreWhenFree} from "../../loaders/store/wait-for-lock.js";
import {writeParquetToStdout} from "../../loaders/store/export.js";
import {evaluatedSql} from "../../loaders/queries/store-contents.js";
import {redactedQuery} from "./redaction.js";

/** A loader's DuckDB memory unless SOCIOMETER_LOADER_MEMORY says otherwise. */
export const DEFAULT_LOADER_MEMORY = "1GiB";

/**
 * The most memory DuckDB may take in one loader: SOCIOMETER_LOADER_MEMORY
 * (such as "1500MB"), else DEFAULT_LOADER_MEMORY. Past it, joins and
 * aggregates spill to a temporary folder instead of growing (issue 18: under
 * 2 GiB RSS per loader). Measured at a million episodes under 1 GiB: every
 * SOTOPIA and explorer loader at 0.4–1.37 GB RSS; without a cap sotopia-stats
 * took 5.6 GB, and before its rewrite 10.8 GB.
 */
export function loaderMemoryLimit(env: NodeJS.ProcessEnv = process.env): string {
  const text = env.SOCIOMETER_LOADER_MEMORY?.trim();
  if (!text) return DEFAULT_LOADER_MEMORY;
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/.test(text)) {
    throw new Error(`SOCIOMETER_LOADER_MEMORY: expected an amount such as 1GiB or 1500MB, got ${JSON.stringify(text)}`);
  }
  return text;
}

/**
 * Runs `fn` on the store opened read-only, then closes it; exits with a message
 * a user can act on when there is no store, or one this version cannot read
 * (it needs `sociometer migrate`, or a rebuild); waits (saying so) while an
 * import holds it. Every loader here goes through it.
 */
export async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const path = defaultStorePath();
  if (!existsSync(path)) {
    // Only the file name: loader output and logs never carry absolute paths.
    console.error(`no store ${basename(path)} (SOCIOMETER_DB or data/sociometer.duckdb): run \`npm run store\` or \`sociometer import\` first`);
    process.exit(1);
  }
  // Both refusals (an older or newer schema, a store still in use past the wait)
  // name the store by file name only and say what to do.
  const store = await openStoreWhenFree(path, {readOnly: true}).catch((e: Error) => {
    console.error(e.message);
    return process.exit(1);
  });
  // Spilled data goes to a folder of this loader's own, not beside the store (which may be read-only, and is the user's).
  const spill = mkdtempSync(join(tmpdir(), "sociometer-spill-"));
  try {
    const limit = loaderMemoryLimit();
    // Checked against a pattern of digits and units just above, so it cannot close the quote.
    await store.conn.run(`SET memory_limit = '${limit}'`);
    await store.conn.run(`SET temp_directory = '${spill.replaceAll("'", "''")}'`);
    return await fn(store);
  } finally {
    store.close();
    rmSync(spill, {recursive: true, force: true});
  }
}

/** Writes the result of `sql` over the store as Parquet to stdout, key-shaped text redacted as in the table explorer. */
export async function emitParquet(sql: string): Promise<void> {
  await withStore(async (store) => writeParquetToStdout(store.conn, await redactedQuery(store.conn, sql)));
}

/**
 * The most episodes the viewer ships with their transcripts and ratings, over
 * all benchmarks; past this, the page says "showing N of M". Instance rows for
 * every episode would not fit a browser at a million episodes (OFFLINE.md, data size).
 */
export const VIEWER_LIMIT = 5000;

/**
 * The episodes the viewer ships: evaluated episodes with a transcript (at
 * least one message), of any benchmark, at most VIEWER_LIMIT. Taken in turns,
 * each benchmark's first by id, then each one's second, …: a benchmark with
 * few episodes ships them all, and the others share what is left equally
 * (as far as they have episodes), so no benchmark crowds out another.
 */
export const VIEWER_EPISODES_SQL = `
  SELECT episode_id FROM (
    SELECT e.episode_id, e.benchmark,
           row_number() OVER (PARTITION BY e.benchmark ORDER BY e.episode_id) AS turn
    FROM episodes e
    WHERE e.episode_id IN (SELECT episode_id FROM messages) AND ${evaluatedSql("e")}
  )
  ORDER BY turn, benchmark
  LIMIT ${VIEWER_LIMIT}
`;

