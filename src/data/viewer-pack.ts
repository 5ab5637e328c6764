// Writes the episode viewer's packs (format: src/client/episode-pack.ts) from
// the store: every episode with a transcript, in blocks the page reads one at
// a time. Rows leave DuckDB already as JSON text, key-shaped text redacted as
// in every page data file, a block's part as one JSON array, and stream through
// here one block at a time, so the loader's memory does not grow with the store.

import type {DuckDBConnection} from "@duckdb/node-api";
import {createReadStream, createWriteStream, existsSync, mkdtempSync, rmSync, type WriteStream} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {once} from "node:events";
import {finished, pipeline} from "node:stream/promises";
import {promisify} from "node:util";
import {gzip} from "node:zlib";
import {benchmarkOfSql, evaluatedSql, playerSql} from "../../loaders/queries/store-contents.js";
import {PACK_MAGIC, blockOfId, indexEntryBytes, type PackHeader} from "../client/episode-pack.js";
import {VIEWER_ORDER} from "../client/episodes.js";
import {redactedQuery} from "./redaction.js";

/**
 * Episodes per block of the episode pack, on average (ids are hashed to
 * blocks, so a block holds a few more or fewer): what one episode open
 * fetches. Small enough to stay tens of kilobytes, large enough that the
 * index (12 + 4 bytes a part per block) stays a small share of the file.
 */
export const EPISODES_PER_BLOCK = 8;

/** Episodes per page of the list pack: one fetch when the reader pages or raises the list's size. */
export const LIST_PAGE_SIZE = 500;

/** The parts of an episode block, in file order. */
export const EPISODE_PARTS = ["episodes", "participants", "messages", "ratings"] as const;

/** Blocks compressed ahead of the one being written: enough to keep libuv's thread pool busy. */
const BLOCKS_IN_FLIGHT = 16;

const gzipAsync = promisify(gzip);
/** The JSON array of `rows`, JSON texts of one object each. */
const jsonArray = (rows: readonly string[]): string => `[${rows.join(",")}]`;

/** Collects blocks in a scratch file, then writes header, index and blocks to the output. */
export class PackWriter {
  private readonly dir = mkdtempSync(join(tmpdir(), "sociometer-pack-"));
  private readonly scratch: WriteStream = createWriteStream(join(this.dir, "blocks"));
  private readonly entries: {offset: number; lengths: number[]}[] = [];
  /** Blocks being compressed, in file order. */
  private readonly compressing: Promise<Buffer[]>[] = [];
  private size = 0;

  constructor(private readonly parts: readonly string[]) {}

  get blocks(): number {
    return this.entries.length + this.compressing.length;
  }

  /** Compressed size of the block added last. */
  get lastBlockBytes(): number {
    return this.entries.at(-1)?.lengths.reduce((s, n) => s + n, 0) ?? 0;
  }

  /** Appends the next block: for each part, its rows as JSON texts (one object each). Written when it returns. */
  async add(rowsByPart: readonly (readonly string[])[]): Promise<void> {
    await this.addParts(rowsByPart.map(jsonArray));
    while (this.compressing.length) await this.writeNext();
  }

  /**
   * Appends the next block: for each part, the JSON array of its rows.
   * Compressed on the thread pool while the caller reads the next blocks; written in order.
   */
  async addParts(parts: readonly string[]): Promise<void> {
    this.compressing.push(Promise.all(parts.map((p) => gzipAsync(p))));
    if (this.compressing.length >= BLOCKS_IN_FLIGHT) await this.writeNext();
  }

  private async writeNext(): Promise<void> {
    const compressed = await this.compressing.shift()!;
    const lengths: number[] = [];
    const offset = this.size;
    for (const bytes of compressed) {
      lengths.push(bytes.length);
      this.size += bytes.length;
      if (!this.scratch.write(bytes)) await once(this.scratch, "drain");
    }
    this.entries.push({offset, lengths});
  }

  /** Writes the pack to `out` with `header` (plus parts and block count), and removes the scratch file. */
  async finish(out: NodeJS.WritableStream, header: Record<string, unknown>): Promise<void> {
    try {
      while (this.compressing.length) await this.writeNext();
      this.scratch.end();
      await finished(this.scratch);
      const full: PackHeader = {...header, parts: [...this.parts], blocks: this.entries.length};
      const headerBytes = Buffer.from(JSON.stringify(full), "utf8");
      const entryBytes = indexEntryBytes(this.parts.length);
      const blocksStart = 8 + headerBytes.length + this.entries.length * entryBytes;
      const head = Buffer.alloc(blocksStart);
      head.write(PACK_MAGIC, 0, "latin1");
      head.writeUInt32LE(headerBytes.length, 4);
      headerBytes.copy(head, 8);
      for (const [k, {offset, lengths}] of this.entries.entries()) {
        const at = 8 + headerBytes.length + k * entryBytes;
        head.writeDoubleLE(blocksStart + offset, at);
        for (const [i, n] of lengths.entries()) head.writeUInt32LE(n, at + 8 + 4 * i);
      }
      if (!out.write(head)) await once(out, "drain");
      await pipeline(createReadStream(join(this.dir, "blocks")), out, {end: false});
    } finally {
      rmSync(this.dir, {recursive: true, force: true});
    }
  }
}

/** Streams the rows of `sql`, one array of values per row, chunk by chunk. */
async function* streamRows(conn: DuckDBConnection, sql: string): AsyncGenerator<unknown[]> {
  const result = await conn.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return;
    for (const row of chunk.getRows()) yield row as unknown[];
  }
}

/**
 * Streams the rows of `sql` (block, part, one row's JSON text), sorted by block
 * and part, and yields each block's part as the JSON array of its rows. A sort
 * rather than DuckDB's ordered string_agg: the sort spills, the aggregate held
 * a chunk's rows in memory (it ran out of a 64 MB limit on the samples; at
 * 100k episodes the query alone took 1.33 GiB RSS against 0.45 GiB for this,
 * and 40% more CPU).
 */
async function* blockParts(conn: DuckDBConnection, sql: string): AsyncGenerator<{block: number; part: number; json: string}> {
  const result = await conn.stream(sql);
  let block = -1;
  let part = -1;
  let rows: string[] = [];
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const blocks = chunk.getColumnVector(0);
    const parts = chunk.getColumnVector(1);
    const texts = chunk.getColumnVector(2);
    for (let i = 0; i < chunk.rowCount; i++) {
      const b = blocks.getItem(i) as number;
      const p = parts.getItem(i) as number;
      if (b !== block || p !== part) {
        if (rows.length > 0) yield {block, part, json: jsonArray(rows)};
        block = b;
        part = p;
        rows = [];
      }
      rows.push(texts.getItem(i) as string);
    }
  }
  if (rows.length > 0) yield {block, part, json: jsonArray(rows)};
}

/**
 * SQL: the viewer's episodes (evaluated, with at least one message) with what
 * the list shows and searches: benchmark (the name the overview counts it
 * under), scenario, ids, who played ("model 1 vs model 2", never the
 * dataset's speakers), characters, turns and messages. `ids` is a table
 * or subquery of the episode ids to describe.
 */
export function summarySql(ids: string): string {
  return `
WITH seats AS (
  SELECT p.episode_id,
         string_agg(p.model, ' vs ' ORDER BY p.agent) FILTER (WHERE ${playerSql("p")}) AS models,
         string_agg(coalesce(p.character, ''), ' & ' ORDER BY p.agent) AS characters
  FROM participants p SEMI JOIN ${ids} i ON i.episode_id = p.episode_id
  GROUP BY p.episode_id
),
lengths AS (
  SELECT m.episode_id, count(DISTINCT m.turn)::INTEGER AS turns, count(*)::INTEGER AS messages
  FROM messages m SEMI JOIN ${ids} i ON i.episode_id = m.episode_id
  GROUP BY m.episode_id
),
-- A run that names no scenario of its own (an STSS conversation) takes its
-- definition's: the same scenario_id under a definitions benchmark of its own.
defined AS (
  SELECT ${benchmarkOfSql("benchmark")} AS benchmark, scenario_id, any_value(scenario) AS scenario
  FROM episodes
  WHERE benchmark <> ${benchmarkOfSql("benchmark")} AND scenario_id IS NOT NULL AND scenario IS NOT NULL
  GROUP BY ALL
)
SELECT e.episode_id,
       ${benchmarkOfSql("e.benchmark")} AS benchmark,
       coalesce(e.scenario, d.scenario, '') AS scenario,
       coalesce(e.scenario_id, '') AS scenario_id,
       coalesce(e.codename, '') AS codename,
       coalesce(e.tag, '') AS tag,
       coalesce(e.task_type, '') AS task_type,
       e.synthetic,
       coalesce(s.models, '') AS models,
       coalesce(s.characters, '') AS characters,
       l.turns,
       l.messages
FROM episodes e
JOIN lengths l USING (episode_id)
LEFT JOIN seats s USING (episode_id)
LEFT JOIN defined d ON d.benchmark = ${benchmarkOfSql("e.benchmark")} AND d.scenario_id = e.scenario_id`;
}

/** SQL: the ids of the viewer's episodes: evaluated, with at least one message. */
const VIEWER_IDS_SQL = `
  SELECT e.episode_id FROM episodes e
  WHERE e.episode_id IN (SELECT episode_id FROM messages) AND ${evaluatedSql("e")}`;

/** Episode ids read at a time while they are placed in blocks. */
const ID_PAGE = 100_000;

/** How the first pass writes its chunks: one folder of Parquet files per chunk. */
const PARTITIONED_WRITE = "FORMAT parquet, PARTITION_BY (chunk), ROW_GROUP_SIZE 2048";

/**
 * At least `wanted` per chunk, and few enough chunks that DuckDB keeps every
 * chunk's file open (`partitioned_write_max_open_files`, 100 by default), so
 * a chunk is one file.
 */
async function perChunk(conn: DuckDBConnection, wanted: number, total: number): Promise<number> {
  const [[open]] = (await conn.runAndReadAll("SELECT current_setting('partitioned_write_max_open_files')::BIGINT")).getRows() as [[bigint]];
  return Math.max(wanted, Math.ceil(total / Number(open)));
}

/**
 * Blocks written from one sort: a chunk of the pack whose rows DuckDB orders
 * (about 8k episodes), so the sort's work stays the same whatever the
 * store's size.
 */
export const BLOCKS_PER_CHUNK = 1024;

/**
 * Writes the episode pack: every viewer episode in block blockOfId(id, B),
 * each block holding its episodes' summary row, participants, messages (in
 * order) and ratings with their dimensions' names and ranges.
 *
 * Two passes keep memory flat and time linear in the store: every row is
 * turned into JSON once and spread by its block's chunk into Parquet files of
 * a scratch folder (a partitioned write, no sort); then each chunk is read
 * alone, sorted by DuckDB, and its rows joined here into each block's parts as
 * they stream past, so JavaScript holds one block at a time. DuckDB's memory
 * is the caller's (the loaders' limit, src/data/store.ts).
 */
export async function writeEpisodePack(conn: DuckDBConnection, out: NodeJS.WritableStream, {blocksPerChunk = BLOCKS_PER_CHUNK} = {}): Promise<void> {
  // Temporary tables: the store is open read-only, and the temp catalog is the connection's own.
  // `ord` is the episode's place in id order: the sort below compares integers, not ids. The viewer's
  // ids are found once (a semi join over every message); paging that query instead re-ran it per page.
  await conn.run(`CREATE OR REPLACE TEMP TABLE listed_ids AS
    SELECT episode_id, (row_number() OVER (ORDER BY episode_id) - 1)::INTEGER AS ord FROM (${VIEWER_IDS_SQL})`);
  await conn.run("CREATE OR REPLACE TEMP TABLE shipped (episode_id VARCHAR, block INTEGER, ord INTEGER)");
  const [[count]] = (await conn.runAndReadAll("SELECT count(*) FROM temp.listed_ids")).getRows() as [[bigint]];
  const blocks = Math.max(1, Math.ceil(Number(count) / EPISODES_PER_BLOCK));
  const appender = await conn.createAppender("shipped", "main", "temp");
  let ord = 0;
  // Read in pages, never streamed while appending: the appender writes every 204,800 rows on this
  // connection, which ended a pending stream there (at a million episodes only that many were packed).
  for (;;) {
    const page = (await conn.runAndReadAll(
      `SELECT episode_id FROM temp.listed_ids WHERE ord >= $1 AND ord < $2 ORDER BY ord`,
      [ord, ord + ID_PAGE],
    )).getRows() as [string][];
    // The block comes from the page's own hash of the id (blockOfId), so the page finds an episode without an index.
    for (const [id] of page) {
      appender.appendVarchar(id);
      appender.appendInteger(blockOfId(id, blocks));
      appender.appendInteger(ord++);
      appender.endRow();
    }
    if (page.length < ID_PAGE) break;
  }
  appender.closeSync();
  await conn.run("DROP TABLE temp.listed_ids");
  if (ord !== Number(count)) throw new Error(`viewer pack: ${count} episodes to pack but ${ord} placed`);

  const chunkBlocks = await perChunk(conn, blocksPerChunk, blocks);
  const shipped = "temp.shipped";
  // Each part's rows with the column that orders them within an episode.
  const parts: {sql: string; order: string; then?: string}[] = [
    {sql: summarySql(shipped), order: "0"},
    {
      sql: `SELECT episode_id, agent, model, coalesce(character, '') AS character, coalesce(goal, '') AS goal, coalesce(background, '') AS background
        FROM participants SEMI JOIN ${shipped} s USING (episode_id)`,
      order: "r.agent",
    },
    {sql: `SELECT episode_id, seq, turn, agent, action_type, content FROM messages SEMI JOIN ${shipped} s USING (episode_id)`, order: "r.seq"},
    {
      sql: `SELECT r.episode_id, r.agent, r.dimension, r.rater, r.rater_kind, r.value, coalesce(r.rationale, '') AS rationale, r.run_id,
               d.name AS dimension_name, d.abbrev, d.lo, d.hi, d.ord AS dimension_order
        FROM ratings r JOIN episodes e USING (episode_id) SEMI JOIN ${shipped} s ON s.episode_id = r.episode_id
        LEFT JOIN dimensions d ON d.benchmark = e.benchmark AND d.dimension = r.dimension`,
      order: "r.agent",
      // A seat's ratings otherwise tie: ordered by what tells them apart.
      then: "r.dimension || chr(31) || r.rater || chr(31) || coalesce(r.run_id, '')",
    },
  ];
  const scratch = mkdtempSync(join(tmpdir(), "sociometer-pack-rows-"));
  try {
    const quote = (path: string) => `'${path.replaceAll("'", "''")}'`;
    // Each chunk is sorted when read back: the write need not keep the rows' order.
    await conn.run("SET preserve_insertion_order = false");
    // One part at a time, and each in two steps: its rows' JSON alone into one file, then placed in their
    // blocks and spread by chunk. The summary's aggregates, the JSON and the spread in one query ran out
    // of DuckDB's 1 GiB at 1M (the list pack likewise).
    for (const [i, {sql, order, then}] of parts.entries()) {
      const json = join(scratch, `part-${i}.parquet`);
      await conn.run(`COPY (SELECT r.episode_id, ${order} AS k, ${then ?? "''"} AS k2, to_json(r) AS row FROM (${await redactedQuery(conn, sql)}) r)
        TO ${quote(json)} (FORMAT parquet, ROW_GROUP_SIZE 8192)`);
      await conn.run(`COPY (SELECT s.block // ${chunkBlocks} AS chunk, s.block, ${i} AS part, s.ord, p.k, p.k2, p.row
        FROM read_parquet(${quote(json)}) p JOIN ${shipped} s USING (episode_id)) TO ${quote(join(scratch, `part-${i}`))} (${PARTITIONED_WRITE})`);
      rmSync(json);
    }
    await conn.run("RESET preserve_insertion_order");
    const summaries = join(scratch, "part-0");
    const written = count > 0n ? ((await conn.runAndReadAll(`SELECT count(*) FROM read_parquet(${quote(join(summaries, "*", "*.parquet"))})`)).getRows()[0]![0] as bigint) : 0n;
    if (written !== count) throw new Error(`viewer pack: ${count} episodes to pack but ${written} written`);
    const writer = new PackWriter(EPISODE_PARTS);
    let texts: string[] = EPISODE_PARTS.map(() => "[]");
    let current = 0;
    const flush = async () => {
      await writer.addParts(texts);
      texts = EPISODE_PARTS.map(() => "[]");
      current++;
    };
    for (let chunk = 0; chunk * chunkBlocks < blocks; chunk++) {
      // A part with no rows in a chunk's blocks has no folder for it.
      const folders = parts.map((_, i) => join(scratch, `part-${i}`, `chunk=${chunk}`)).filter((f) => existsSync(f));
      if (folders.length === 0) continue;
      const files = `[${folders.map((f) => quote(join(f, "*.parquet"))).join(", ")}]`;
      // Within a block, parts in file order and each part's rows in a total order: the same store always gives the same file.
      const sql = `SELECT block, part, row FROM read_parquet(${files}, union_by_name = true) ORDER BY block, part, ord, k, k2`;
      for await (const {block, part, json} of blockParts(conn, sql)) {
        while (current < block) await flush();
        texts[part] = json;
      }
    }
    while (current < blocks) await flush();
    await writer.finish(out, {kind: "episodes", episodes: Number(count)});
  } finally {
    rmSync(scratch, {recursive: true, force: true});
  }
}

/** A benchmark of the list pack: how many episodes it has and which pages hold them. */
export interface ListBenchmark {
  name: string;
  episodes: number;
  firstPage: number;
  pages: number;
  /** Compressed size of its pages. */
  bytes: number;
}

/** List rows written from one sort (a few megabytes of JSON), as BLOCKS_PER_CHUNK for the episode pack. */
export const LIST_ROWS_PER_CHUNK = 65_536;

/**
 * Writes the list pack: the viewer's episodes' summary rows in pages of
 * LIST_PAGE_SIZE, by benchmark (in the viewer's order) then id; a page holds
 * one benchmark's episodes only. The header lists the benchmarks' pages.
 * As the episode pack, in two passes: the ids are put in order alone (short
 * rows), each summary row is turned into JSON once and spread by its place's
 * chunk into Parquet, and each chunk is then sorted alone; one sort of every
 * row's JSON ran out of DuckDB's 1 GiB at a million episodes.
 */
export async function writeListPack(conn: DuckDBConnection, out: NodeJS.WritableStream, {rowsPerChunk = LIST_ROWS_PER_CHUNK} = {}): Promise<void> {
  const rank = `CASE benchmark ${VIEWER_ORDER.map((name, i) => `WHEN '${name}' THEN ${i}`).join(" ")} ELSE ${VIEWER_ORDER.length} END`;
  await conn.run(`CREATE OR REPLACE TEMP TABLE listed AS
    SELECT episode_id, (row_number() OVER (ORDER BY ${rank}, benchmark, episode_id) - 1)::BIGINT AS ord
    FROM (SELECT e.episode_id, ${benchmarkOfSql("e.benchmark")} AS benchmark FROM (${VIEWER_IDS_SQL}) i JOIN episodes e USING (episode_id))`);
  const writer = new PackWriter(["episodes"]);
  const benchmarks: ListBenchmark[] = [];
  let page: string[] = [];
  const flush = async () => {
    if (page.length === 0) return;
    await writer.add([page]);
    benchmarks[benchmarks.length - 1].pages++;
    benchmarks[benchmarks.length - 1].bytes += writer.lastBlockBytes;
    page = [];
  };
  const [[listed]] = (await conn.runAndReadAll("SELECT count(*) FROM temp.listed")).getRows() as [[bigint]];
  const chunkRows = await perChunk(conn, rowsPerChunk, Number(listed));
  const scratch = mkdtempSync(join(tmpdir(), "sociometer-pack-list-"));
  try {
    const quote = (path: string) => `'${path.replaceAll("'", "''")}'`;
    // The rows' JSON first, alone: joined to their places in the same query, it ran out of DuckDB's 1 GiB at 1M.
    const json = join(scratch, "rows.parquet");
    await conn.run(`COPY (SELECT r.episode_id, r.benchmark, to_json(r) AS row FROM (${await redactedQuery(conn, summarySql("temp.listed"))}) r)
      TO ${quote(json)} (FORMAT parquet, ROW_GROUP_SIZE 8192)`);
    // Each chunk is sorted when read back: the write need not keep the rows' order.
    await conn.run("SET preserve_insertion_order = false");
    await conn.run(`COPY (SELECT l.ord // ${chunkRows} AS chunk, l.ord, p.benchmark, p.row FROM read_parquet(${quote(json)}) p JOIN temp.listed l USING (episode_id))
      TO ${quote(join(scratch, "chunks"))} (${PARTITIONED_WRITE})`);
    await conn.run("RESET preserve_insertion_order");
    const [[count]] = (await conn.runAndReadAll("SELECT count(*) FROM temp.listed")).getRows() as [[bigint]];
    const [[placed]] = count === 0n ? [[0n]] : ((await conn.runAndReadAll(`SELECT count(*) FROM read_parquet(${quote(join(scratch, "chunks", "*", "*.parquet"))})`)).getRows() as [[bigint]]);
    // The join is on the shipped (redacted) id: an id with key-shaped text in it would not find its place.
    if (count !== placed) throw new Error(`viewer list: ${count} episodes to list but ${placed} placed; an episode id holds text shaped like a key`);
    for (let chunk = 0; chunk * chunkRows < Number(count); chunk++) {
      const sql = `SELECT benchmark, row FROM read_parquet(${quote(join(scratch, "chunks", `chunk=${chunk}`, "*.parquet"))}) ORDER BY ord`;
      for await (const [benchmark, json] of streamRows(conn, sql)) {
        if (benchmarks.at(-1)?.name !== benchmark) {
          await flush();
          benchmarks.push({name: benchmark as string, episodes: 0, firstPage: writer.blocks, pages: 0, bytes: 0});
        }
        page.push(json as string);
        benchmarks[benchmarks.length - 1].episodes++;
        if (page.length === LIST_PAGE_SIZE) await flush();
      }
    }
  } finally {
    rmSync(scratch, {recursive: true, force: true});
  }
  await flush();
  await writer.finish(out, {kind: "list", pageSize: LIST_PAGE_SIZE, benchmarks});
}
