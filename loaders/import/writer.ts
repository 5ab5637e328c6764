// Appends canonical records to the store's tables through DuckDB appenders,
// a data chunk at a time (chunk-appender.ts; no SQL per row). Runs inside the
// import's transaction. Column numbers are the tables' column order in the
// migrations.

import {BIGINT, DOUBLE, INTEGER, LIST, listValue, VARCHAR, type DuckDBConnection, type DuckDBType, type DuckDBValue} from "@duckdb/node-api";
import {NULL_INT, type EpisodeBatch} from "./batch.js";
import {ChunkAppender} from "./chunk-appender.js";
import type {EpisodeRecord, RatingRecord} from "./records.js";
import {spokenWords} from "../store/spoken-words.js";

/** A JS value as a bound DuckDB parameter (arrays become lists). */
function toDuck(v: unknown): DuckDBValue {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return listValue(v.map(toDuck));
  return v as DuckDBValue;
}

const BATCH = 500;

/** Item types of the list columns the migrations declare. */
const LIST_ITEM_TYPES: Readonly<Record<string, DuckDBType>> = {VARCHAR, INTEGER, BIGINT, DOUBLE};

export class StoreWriter {
  /** Rows for benchmark tables, written in batches of parameterised INSERTs (their volumes are small). */
  private pending = new Map<string, Record<string, unknown>[]>();

  private constructor(
    private readonly conn: DuckDBConnection,
    private readonly episodes: ChunkAppender,
    private readonly participants: ChunkAppender,
    private readonly messages: ChunkAppender,
    private readonly ratings: ChunkAppender,
    private readonly spokenWords: ChunkAppender,
  ) {}

  static async open(conn: DuckDBConnection): Promise<StoreWriter> {
    // Repeated: every string column but the ones that are new on almost every row (episodes.episode_id, messages.content,
    // ratings.rationale); the episode id of child rows, scenarios, characters, models, action types, dimensions, raters.
    return new StoreWriter(
      conn,
      new ChunkAppender(await conn.createAppender("episodes"), new Set([1, 2, 3, 4, 5, 6, 7, 9, 10, 12])),
      new ChunkAppender(await conn.createAppender("participants"), new Set([0, 2, 3, 4, 5, 6])),
      new ChunkAppender(await conn.createAppender("messages"), new Set([0, 4])),
      new ChunkAppender(await conn.createAppender("ratings"), new Set([0, 2, 3, 4, 7, 8])),
      new ChunkAppender(await conn.createAppender("spoken_words"), new Set([0])),
    );
  }

  episode(e: EpisodeRecord, sourceId: string): void {
    const a = this.episodes;
    a.varchar(0, e.episode_id);
    a.varchar(1, e.benchmark);
    a.varchar(2, sourceId);
    a.varchar(3, e.scenario_id);
    a.varchar(4, e.scenario);
    a.varchar(5, e.codename);
    a.varchar(6, e.task_type);
    a.varchar(7, e.chain_id);
    a.integer(8, e.chain_index);
    a.varchar(9, e.split);
    a.varchar(10, e.tag);
    a.boolean(11, e.synthetic);
    a.varchar(12, e.settings ? JSON.stringify(e.settings) : null);
    a.endRow();
    for (const p of e.participants) {
      const b = this.participants;
      b.varchar(0, e.episode_id);
      b.integer(1, p.agent);
      b.varchar(2, p.agent_ref);
      b.varchar(3, p.model);
      b.varchar(4, p.character);
      b.varchar(5, p.goal);
      b.varchar(6, p.background);
      b.endRow();
    }
    e.messages.forEach((m, seq) => {
      const c = this.messages;
      c.varchar(0, e.episode_id);
      c.integer(1, seq);
      c.integer(2, m.turn);
      c.integer(3, m.agent);
      c.varchar(4, m.action_type);
      c.varchar(5, m.content);
      c.endRow();
      const words = spokenWords(m.action_type, m.agent, m.content);
      if (words !== null) this.spoken(e.episode_id, seq, m.agent!, words);
    });
    for (const r of e.ratings) this.rating(r, sourceId);
    for (const [table, rows] of Object.entries(e.tables ?? {})) {
      const list = this.pending.get(table) ?? [];
      for (const row of rows) list.push({episode_id: e.episode_id, ...row});
      this.pending.set(table, list);
    }
  }

  /**
   * Appends the episodes of a batch (all but those `skip` marks), the same rows
   * `episode` would write for each. Loops over columns: the cheap part of an
   * import, so the main thread keeps up with the workers that parse.
   */
  batch(b: EpisodeBatch, sourceId: string, skip: Uint8Array | null): void {
    const {dict, episodes: e, participants: p, messages: m, ratings: r} = b;
    const ea = this.episodes, pa = this.participants, ma = this.messages, ra = this.ratings;
    const nullable = (v: number): number | null => (v === NULL_INT ? null : v);
    for (let i = 0; i < b.count; i++) {
      if (skip?.[i]) continue;
      const id = e.episode_id[i];
      ea.varchar(0, id);
      ea.varchar(1, dict[e.benchmarkCode[i]]);
      ea.varchar(2, sourceId);
      ea.varchar(3, e.scenario_id[i]);
      ea.varchar(4, e.scenario[i]);
      ea.varchar(5, e.codename[i]);
      ea.varchar(6, e.task_type[i]);
      ea.varchar(7, e.chain_id[i]);
      ea.integer(8, nullable(e.chain_index[i]));
      ea.varchar(9, e.split[i]);
      ea.varchar(10, e.tag[i]);
      ea.boolean(11, e.synthetic[i] === 1);
      ea.varchar(12, e.settings[i]);
      ea.endRow();
      for (let k = p.start[i]; k < p.start[i + 1]; k++) {
        pa.varchar(0, id);
        pa.integer(1, p.agent[k]);
        pa.varchar(2, p.agent_ref[k]);
        pa.varchar(3, dict[p.modelCode[k]]);
        pa.varchar(4, p.character[k]);
        pa.varchar(5, p.goal[k]);
        pa.varchar(6, p.background[k]);
        pa.endRow();
      }
      const first = m.start[i];
      for (let k = first; k < m.start[i + 1]; k++) {
        ma.varchar(0, id);
        ma.integer(1, k - first);
        ma.integer(2, m.turn[k]);
        ma.integer(3, nullable(m.agent[k]));
        ma.varchar(4, dict[m.actionCode[k]]);
        ma.varchar(5, m.content[k]);
        ma.endRow();
        if (m.words[k] !== NULL_INT) this.spoken(id, k - first, m.agent[k], m.words[k]);
      }
      for (let k = r.start[i]; k < r.start[i + 1]; k++) {
        ra.varchar(0, id);
        ra.integer(1, r.agent[k]);
        ra.varchar(2, dict[r.dimensionCode[k]]);
        ra.varchar(3, dict[r.raterCode[k]]);
        ra.varchar(4, dict[r.raterKindCode[k]]);
        ra.double(5, r.value[k]);
        ra.varchar(6, r.rationale[k]);
        ra.varchar(7, dict[r.runCode[k]]);
        ra.varchar(8, sourceId);
        ra.endRow();
      }
    }
  }

  /** Queues one row for a table of its own (not keyed by an episode this import writes), written with the benchmark tables. */
  row(table: string, row: Record<string, unknown>): void {
    const list = this.pending.get(table) ?? [];
    list.push(row);
    this.pending.set(table, list);
  }

  /** Writes the pending benchmark-table rows. Table and column names come from the importers' code, never from input. */
  async flushTables(): Promise<void> {
    for (const [table, rows] of this.pending) {
      if (!/^[a-z_]+$/.test(table)) throw new Error(`bad table name ${table}`);
      const columns = Object.keys(rows[0] ?? {});
      const listTypes = await this.listTypes(table);
      for (let i = 0; i < rows.length; i += BATCH) {
        const chunk = rows.slice(i, i + BATCH);
        const placeholders = chunk.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(", ")})`).join(", ");
        const params = chunk.flatMap((row) => columns.map((c) => toDuck(row[c])));
        // Only list columns get a declared type: the others keep DuckDB's inference, as before.
        const types = chunk.flatMap(() => columns.map((c) => listTypes.get(c))) as DuckDBType[];
        await this.conn.run(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${placeholders}`, params, types);
      }
    }
    this.pending.clear();
  }

  /**
   * The types of a table's list columns. An empty JS array says nothing of its
   * item type, and DuckDB will not bind a list of unknown items; binding with
   * the column's own type stores an empty list as one (not as NULL).
   */
  private async listTypes(table: string): Promise<Map<string, DuckDBType>> {
    const reader = await this.conn.runAndReadAll(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 AND data_type LIKE '%[]'",
      [table],
    );
    const out = new Map<string, DuckDBType>();
    for (const [name, type] of reader.getRows()) {
      const item = LIST_ITEM_TYPES[String(type).slice(0, -2)];
      if (!item) throw new Error(`${table}.${String(name)}: list column of type ${String(type)} has no binding here; add it to LIST_ITEM_TYPES`);
      out.set(String(name), LIST(item));
    }
    return out;
  }

  /** One spoken_words row: the message at `seq` of `episodeId`, spoken from seat `agent`. */
  private spoken(episodeId: string, seq: number, agent: number, words: number): void {
    const a = this.spokenWords;
    a.varchar(0, episodeId);
    a.integer(1, seq);
    a.integer(2, agent);
    a.integer(3, words);
    a.endRow();
  }

  rating(r: RatingRecord, sourceId: string): void {
    const a = this.ratings;
    a.varchar(0, r.episode_id);
    a.integer(1, r.agent);
    a.varchar(2, r.dimension);
    a.varchar(3, r.rater);
    a.varchar(4, r.rater_kind);
    a.double(5, r.value);
    a.varchar(6, r.rationale);
    a.varchar(7, r.run_id);
    a.varchar(8, sourceId);
    a.endRow();
  }

  /** Flushes every appender so the rows are visible to queries in the same transaction. */
  flush(): void {
    for (const a of this.appenders()) a.flushSync();
  }

  close(): void {
    for (const a of this.appenders()) a.closeSync();
  }

  private appenders(): ChunkAppender[] {
    return [this.episodes, this.participants, this.messages, this.ratings, this.spokenWords];
  }
}
