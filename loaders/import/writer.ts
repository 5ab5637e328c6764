// Appends canonical records to the store's tables through DuckDB appenders
// (the fast path: no SQL per row). Runs inside the import's transaction.

import {BIGINT, DOUBLE, INTEGER, LIST, listValue, VARCHAR, type DuckDBAppender, type DuckDBConnection, type DuckDBType, type DuckDBValue} from "@duckdb/node-api";
import {NULL_INT, type EpisodeBatch} from "./batch.js";
import type {EpisodeRecord, RatingRecord} from "./records.js";
import {spokenWords} from "../store/spoken-words.js";

/** A JS value as a bound DuckDB parameter (arrays become lists). */
function toDuck(v: unknown): DuckDBValue {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return listValue(v.map(toDuck));
  return v as DuckDBValue;
}

function str(a: DuckDBAppender, v: string | null): void {
  if (v === null) a.appendNull();
  else a.appendVarchar(v);
}

function int(a: DuckDBAppender, v: number | null): void {
  if (v === null) a.appendNull();
  else a.appendInteger(v);
}

const BATCH = 500;

/** Item types of the list columns the migrations declare. */
const LIST_ITEM_TYPES: Readonly<Record<string, DuckDBType>> = {VARCHAR, INTEGER, BIGINT, DOUBLE};

export class StoreWriter {
  /** Rows for benchmark tables, written in batches of parameterised INSERTs (their volumes are small). */
  private pending = new Map<string, Record<string, unknown>[]>();

  private constructor(
    private readonly conn: DuckDBConnection,
    private readonly episodes: DuckDBAppender,
    private readonly participants: DuckDBAppender,
    private readonly messages: DuckDBAppender,
    private readonly ratings: DuckDBAppender,
    private readonly spokenWords: DuckDBAppender,
  ) {}

  static async open(conn: DuckDBConnection): Promise<StoreWriter> {
    return new StoreWriter(
      conn,
      await conn.createAppender("episodes"),
      await conn.createAppender("participants"),
      await conn.createAppender("messages"),
      await conn.createAppender("ratings"),
      await conn.createAppender("spoken_words"),
    );
  }

  episode(e: EpisodeRecord, sourceId: string): void {
    const a = this.episodes;
    a.appendVarchar(e.episode_id);
    a.appendVarchar(e.benchmark);
    a.appendVarchar(sourceId);
    str(a, e.scenario_id);
    str(a, e.scenario);
    str(a, e.codename);
    str(a, e.task_type);
    str(a, e.chain_id);
    int(a, e.chain_index);
    str(a, e.split);
    str(a, e.tag);
    a.appendBoolean(e.synthetic);
    str(a, e.settings ? JSON.stringify(e.settings) : null);
    a.endRow();
    for (const p of e.participants) {
      const b = this.participants;
      b.appendVarchar(e.episode_id);
      b.appendInteger(p.agent);
      str(b, p.agent_ref);
      b.appendVarchar(p.model);
      str(b, p.character);
      str(b, p.goal);
      str(b, p.background);
      b.endRow();
    }
    e.messages.forEach((m, seq) => {
      const c = this.messages;
      c.appendVarchar(e.episode_id);
      c.appendInteger(seq);
      c.appendInteger(m.turn);
      int(c, m.agent);
      c.appendVarchar(m.action_type);
      c.appendVarchar(m.content);
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
    for (let i = 0; i < b.count; i++) {
      if (skip?.[i]) continue;
      const id = e.episode_id[i];
      ea.appendVarchar(id);
      ea.appendVarchar(dict[e.benchmarkCode[i]]);
      ea.appendVarchar(sourceId);
      str(ea, e.scenario_id[i]);
      str(ea, e.scenario[i]);
      str(ea, e.codename[i]);
      str(ea, e.task_type[i]);
      str(ea, e.chain_id[i]);
      if (e.chain_index[i] === NULL_INT) ea.appendNull();
      else ea.appendInteger(e.chain_index[i]);
      str(ea, e.split[i]);
      str(ea, e.tag[i]);
      ea.appendBoolean(e.synthetic[i] === 1);
      str(ea, e.settings[i]);
      ea.endRow();
      for (let k = p.start[i]; k < p.start[i + 1]; k++) {
        pa.appendVarchar(id);
        pa.appendInteger(p.agent[k]);
        str(pa, p.agent_ref[k]);
        pa.appendVarchar(dict[p.modelCode[k]]);
        str(pa, p.character[k]);
        str(pa, p.goal[k]);
        str(pa, p.background[k]);
        pa.endRow();
      }
      const first = m.start[i];
      for (let k = first; k < m.start[i + 1]; k++) {
        ma.appendVarchar(id);
        ma.appendInteger(k - first);
        ma.appendInteger(m.turn[k]);
        if (m.agent[k] === NULL_INT) ma.appendNull();
        else ma.appendInteger(m.agent[k]);
        ma.appendVarchar(dict[m.actionCode[k]]);
        ma.appendVarchar(m.content[k]);
        ma.endRow();
        if (m.words[k] !== NULL_INT) this.spoken(id, k - first, m.agent[k], m.words[k]);
      }
      for (let k = r.start[i]; k < r.start[i + 1]; k++) {
        ra.appendVarchar(id);
        ra.appendInteger(r.agent[k]);
        ra.appendVarchar(dict[r.dimensionCode[k]]);
        ra.appendVarchar(dict[r.raterCode[k]]);
        ra.appendVarchar(dict[r.raterKindCode[k]]);
        ra.appendDouble(r.value[k]);
        str(ra, r.rationale[k]);
        ra.appendVarchar(dict[r.runCode[k]]);
        ra.appendVarchar(sourceId);
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
    a.appendVarchar(episodeId);
    a.appendInteger(seq);
    a.appendInteger(agent);
    a.appendInteger(words);
    a.endRow();
  }

  rating(r: RatingRecord, sourceId: string): void {
    const a = this.ratings;
    a.appendVarchar(r.episode_id);
    a.appendInteger(r.agent);
    a.appendVarchar(r.dimension);
    a.appendVarchar(r.rater);
    a.appendVarchar(r.rater_kind);
    a.appendDouble(r.value);
    str(a, r.rationale);
    a.appendVarchar(r.run_id);
    a.appendVarchar(sourceId);
    a.endRow();
  }

  /** Flushes every appender so the rows are visible to queries in the same transaction. */
  flush(): void {
    for (const a of this.appenders()) a.flushSync();
  }

  close(): void {
    for (const a of this.appenders()) a.closeSync();
  }

  private appenders(): DuckDBAppender[] {
    return [this.episodes, this.participants, this.messages, this.ratings, this.spokenWords];
  }
}
