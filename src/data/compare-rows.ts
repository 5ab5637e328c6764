// The Compare page's rows (the rows `sociometer compare` reads: loaders/cli/
// compare.ts readCompareRows), staged once per build process in a Parquet file
// per benchmark with their order (seq), text redacted as in every page data
// file. Read by one loader per benchmark (compare-rows-<benchmark>
// .parquet, fetched by the page's worker only for the benchmark it compares)
// and by compare-summary.json (the choices and the first view).

import {createReadStream, mkdtempSync, rmSync, statSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {once} from "node:events";
import {readCompareRows} from "../../loaders/cli/compare.js";
import {readChunks} from "../../loaders/cli/compare-pairs.js";
import {compareQuery, withStagedQuery} from "../../loaders/cli/compare-stage.js";
import {SOTOPIA_COMPARE_NUMBERED_LAST, SOTOPIA_COMPARE_STEPS} from "../../loaders/queries/compare.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {COMPARE_PACK_MAGIC, type ComparePackHeader, type PackBlockEntry} from "../client/compare-pack.js";
import {SIDE_KEYS, type CompareBenchmark} from "../lib/compare.js";
import type {WinPolicy} from "../lib/hsii.js";
import type {AppointmentPartners} from "../lib/stss.js";
import {redactedQuery} from "./redaction.js";
import {sharedFile} from "./shared-query.js";
import {withStore} from "./store.js";

/** The columns of a compare row (src/lib/compare.ts CompareRow), in the files' order. */
export const COMPARE_COLUMNS = ["episode_id", "task", "instance", "cluster", "metric", "kind", "value", ...SIDE_KEYS] as const;

/** The SQL type each compare column is shipped as. */
const columnType = (c: string) => (c === "value" ? "DOUBLE" : "VARCHAR");

/**
 * Creates TEMP VIEW compare_rows (benchmark, seq, COMPARE_COLUMNS) over the
 * redacted rows of `benchmarks` (benchmarkRowsFile). In a build the rows of a
 * benchmark are staged once and read by its pack's loader and by
 * compare-summary.json both (at a million episodes the SOTOPIA staging was
 * most of either loader's CPU). HSII's wins are scored under `winPolicy`
 * (default mean, what the summary and compare-rows-hsii.bin hold), STSS's
 * appointment conversations under `appointmentPartners` (default target, what
 * the summary and compare-rows-stss.bin hold).
 */
export async function stageCompareRows(store: Store, benchmarks: readonly CompareBenchmark[], winPolicy: WinPolicy = "mean",
  appointmentPartners: AppointmentPartners = "target"): Promise<void> {
  const parts: string[] = [];
  for (const benchmark of benchmarks) {
    const file = await benchmarkRowsFile(store, benchmark, winPolicy, appointmentPartners);
    // Benchmark names come from COMPARE_BENCHMARKS, never from input; the file's path from this process's own folder.
    parts.push(`SELECT '${benchmark}' AS benchmark, seq, ${COMPARE_COLUMNS.join(", ")} FROM read_parquet('${file.replaceAll("'", "''")}')`);
  }
  const none = `SELECT NULL::VARCHAR AS benchmark, NULL::BIGINT AS seq, ${COMPARE_COLUMNS.map((c) => `NULL::${columnType(c)} AS ${c}`).join(", ")} WHERE false`;
  await store.conn.run(`CREATE OR REPLACE TEMP VIEW compare_rows AS ${parts.length ? parts.join("\nUNION ALL\n") : none}`);
}

/**
 * A Parquet file of one benchmark's compare rows (seq, COMPARE_COLUMNS), in
 * the order the CLI reads them (seq), text redacted as in every page data
 * file: each with its rows' query staged in steps (loaders/cli/compare-stage.ts)
 * as the CLI runs it. Made once per process and store (src/data/shared-query.ts).
 */
function benchmarkRowsFile(store: Store, benchmark: CompareBenchmark, winPolicy: WinPolicy, appointmentPartners: AppointmentPartners): Promise<string> {
  const policyOwn = benchmark === "hsii" && winPolicy !== "mean";
  const partnersOwn = benchmark === "stss" && appointmentPartners !== "target";
  return sharedFile(`compare rows\u0000${benchmark}${policyOwn ? `\u0000${winPolicy}` : ""}${partnersOwn ? `\u0000${appointmentPartners}` : ""}`, async (file) => {
    const write = async (sql: string) => {
      const typed = `SELECT seq::BIGINT AS seq, ${COMPARE_COLUMNS.map((c) => `${c}::${columnType(c)} AS ${c}`).join(", ")}`;
      await store.conn.run(`COPY (${typed} FROM (${await redactedQuery(store.conn, `SELECT seq, ${COMPARE_COLUMNS.join(", ")} FROM (${sql})`)}))
        TO '${file.replaceAll("'", "''")}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000)`);
    };
    if (benchmark === "informativebench") await write(await stageInformativebench(store));
    // SOTOPIA's rows come numbered in the CLI's order (the file's own order does not matter: every reader orders by seq).
    else if (benchmark === "sotopia") {
      // Nor need the join keep the numbered rows' order, which would hold them back in memory.
      await store.conn.run("SET preserve_insertion_order = false");
      try {
        await withStagedQuery(store.conn, {...SOTOPIA_COMPARE_STEPS, last: SOTOPIA_COMPARE_NUMBERED_LAST}, write);
      } finally {
        await store.conn.run("RESET preserve_insertion_order");
      }
    }
    // row_number() over each ordered query keeps the order the CLI reads the rows in.
    else await withStagedQuery(store.conn, compareQuery(benchmark, winPolicy, appointmentPartners), (sql) => write(`SELECT row_number() OVER () AS seq, * FROM (${sql})`));
  });
}

/** InformativeBench rows are scored by the metric library, not SQL: they pass through a temporary table, whose query this returns. */
async function stageInformativebench(store: Store): Promise<string> {
  const ib = await readCompareRows(store, "informativebench");
  await store.conn.run(`CREATE OR REPLACE TEMP TABLE ib_compare (seq BIGINT, ${COMPARE_COLUMNS.map((c) => `${c} ${columnType(c)}`).join(", ")})`);
  const appender = await store.conn.createAppender("ib_compare", "main", "temp");
  ib.forEach((r, i) => {
    appender.appendBigInt(BigInt(i + 1));
    for (const c of COMPARE_COLUMNS) {
      const v = r[c];
      if (c === "value") appender.appendDouble(v as number);
      else if (v === null) appender.appendNull();
      else appender.appendVarchar(String(v));
    }
    appender.endRow();
  });
  appender.closeSync();
  return "SELECT * FROM temp.ib_compare";
}

/** The text columns of a compare row, each shipped as integer codes (src/client/compare-coded.ts reads them). */
export const CODED_COLUMNS = COMPARE_COLUMNS.filter((c) => c !== "value");

/**
 * Creates TEMP TABLE compare_dictionary (column_index, code, text): each
 * coded column's distinct texts numbered in the order JS sorts them (UTF-16
 * code units, which SQL's byte order can differ from), so that sorting codes
 * sorts the texts as the library's pairItems does.
 */
async function stageDictionary(store: Store): Promise<void> {
  await store.conn.run("CREATE TEMP TABLE compare_dictionary (column_index SMALLINT, code INTEGER, text VARCHAR)");
  const appender = await store.conn.createAppender("compare_dictionary", "main", "temp");
  for (let c = 0; c < CODED_COLUMNS.length; c++) {
    const texts: string[] = [];
    // Column names come from COMPARE_COLUMNS, never from input.
    await readChunks(store.conn, `SELECT DISTINCT ${CODED_COLUMNS[c]} FROM compare_rows WHERE ${CODED_COLUMNS[c]} IS NOT NULL`, (chunk) => {
      const column = chunk.getColumnVector(0);
      for (let r = 0; r < chunk.rowCount; r++) texts.push(column.getItem(r) as string);
    });
    texts.sort();
    texts.forEach((text, code) => {
      appender.appendSmallInt(c);
      appender.appendInteger(code);
      appender.appendVarchar(text);
      appender.endRow();
    });
  }
  appender.closeSync();
}

/**
 * A loader's whole job: one benchmark's rows on stdout as a compare pack
 * (src/client/compare-pack.ts reads it): the rows in blocks, one per
 * combination of side-key values, each block a Parquet file of its rows in
 * the CLI's order (seq) with every text column as an INTEGER code (−1 for
 * null), seq and codes each stored as the step from the row before, followed
 * by the texts of the codes it uses, once each, as dictionary rows
 * (dict_column ≥ 0; dict_column, dict_code, dict_text). Codes are numbered over
 * the whole benchmark, so the page's worker, which fetches only the blocks on
 * its two sides, pairs on codes across blocks. HSII's wins are scored under
 * `winPolicy` (default mean), STSS's appointment conversations under `appointmentPartners` (default target).
 */
export async function writeBenchmarkRows(benchmark: CompareBenchmark, winPolicy: WinPolicy = "mean", appointmentPartners: AppointmentPartners = "target"): Promise<void> {
  await withStore(async (store) => {
    await stageCompareRows(store, [benchmark], winPolicy, appointmentPartners);
    await stageDictionary(store);
    const dir = mkdtempSync(join(tmpdir(), "sociometer-compare-pack-"));
    try {
      const blocks = await writeBlocks(store, dir);
      await writePack(blocks, process.stdout);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
}

/** Writes each block's Parquet file into `dir`; returns the blocks in file order with their side keys and row counts. */
async function writeBlocks(store: Store, dir: string): Promise<(PackBlockEntry & {file: string})[]> {
  const conn = store.conn;
  const codes = CODED_COLUMNS.map((c, i) => `coalesce(d${i}.code, -1) AS ${c}`).join(", ");
  const joins = CODED_COLUMNS.map((c, i) => `LEFT JOIN compare_dictionary d${i} ON d${i}.column_index = ${i} AND d${i}.text = r.${c}`).join("\n");
  // A block is one combination of the side keys (null a value of its own): a side takes a block whole or not at all.
  await conn.run(`CREATE TEMP TABLE compare_blocks AS
    SELECT (row_number() OVER (ORDER BY ${SIDE_KEYS.map((k) => `${k} NULLS FIRST`).join(", ")}) - 1)::INTEGER AS block, *
    FROM (SELECT DISTINCT ${SIDE_KEYS.join(", ")} FROM compare_rows)`);
  await conn.run(`CREATE TEMP TABLE compare_coded AS
    SELECT b.block, r.seq::INTEGER AS seq, ${codes}, r.value
    FROM compare_rows r JOIN compare_blocks b ON ${SIDE_KEYS.map((k) => `b.${k} IS NOT DISTINCT FROM r.${k}`).join(" AND ")}
    ${joins}
    ORDER BY b.block, r.seq`);
  const entries = await rows<PackBlockEntry["keys"] & {block: number; rows: number}>(conn,
    `SELECT b.*, count(*)::INTEGER AS rows FROM compare_blocks b JOIN compare_coded c USING (block) GROUP BY ALL ORDER BY b.block`);
  // The codes a block uses, per column: its dictionary rows.
  const used = (block: number) => CODED_COLUMNS.map((c, i) => `SELECT DISTINCT ${i} AS column_index, ${c} AS code FROM compare_coded WHERE block = ${block} AND ${c} >= 0`).join("\nUNION ALL\n");
  const out: (PackBlockEntry & {file: string})[] = [];
  for (const e of entries) {
    // Block numbers come from the row_number() above, never from input.
    const block = Number(e.block);
    const file = join(dir, `block-${e.block}.parquet`);
    // The dictionary rows come after the data rows: data rows in seq order, then dictionary rows by column and code.
    // A data row holds its seq and codes as steps from the row before: in a block, seqs and codes mostly rise by small
    // constant steps that compress to almost nothing (as values, the seqs and the episode and instance codes were most of a block).
    const step = (c: string) => `(${c} - coalesce(lag(${c}) OVER (ORDER BY seq), 0))::INTEGER AS ${c}`;
    await conn.run(`COPY (
        SELECT seq, ${CODED_COLUMNS.join(", ")}, value, dict_column, dict_code, dict_text FROM (
          SELECT 0 AS part, seq AS ord, ${["seq", ...CODED_COLUMNS].map(step).join(", ")}, value,
                 -1 AS dict_column, -1 AS dict_code, NULL::VARCHAR AS dict_text
          FROM compare_coded WHERE block = ${block}
          UNION ALL BY NAME
          SELECT 1 AS part, -1 AS ord, 0 AS seq, ${CODED_COLUMNS.map((c) => `0 AS ${c}`).join(", ")}, 0::DOUBLE AS value,
                 u.column_index::INTEGER AS dict_column, u.code AS dict_code, d.text AS dict_text
          FROM (${used(block)}) u JOIN compare_dictionary d ON d.column_index = u.column_index AND d.code = u.code
        ) ORDER BY part, ord, dict_column, dict_code
      ) TO '${file.replaceAll("'", "''")}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000)`);
    const keys = Object.fromEntries(SIDE_KEYS.map((k) => [k, e[k] ?? null])) as PackBlockEntry["keys"];
    out.push({keys, rows: e.rows, offset: 0, length: statSync(file).size, file});
  }
  return out;
}

/** Streams the pack: magic, header length, header (with each block's offset and length), then the blocks' files in order. */
async function writePack(blocks: (PackBlockEntry & {file: string})[], to: NodeJS.WritableStream): Promise<void> {
  const header: ComparePackHeader = {columns: [...CODED_COLUMNS], rows: 0, blocks: []};
  let offset = 0;
  for (const b of blocks) {
    header.blocks.push({keys: b.keys, rows: b.rows, offset, length: b.length});
    header.rows += b.rows;
    offset += b.length;
  }
  // Block offsets count from the end of the header: the header's length does not depend on them.
  const text = Buffer.from(JSON.stringify(header), "utf8");
  const prefix = Buffer.alloc(8);
  prefix.write(COMPARE_PACK_MAGIC, 0, "latin1");
  prefix.writeUInt32LE(text.length, 4);
  to.write(prefix);
  to.write(text);
  for (const b of blocks) {
    for await (const chunk of createReadStream(b.file)) if (!to.write(chunk)) await once(to, "drain");
  }
}
