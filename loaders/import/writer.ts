// Appends canonical records to the store's tables through DuckDB appenders
// (the fast path: no SQL per row). Runs inside the import's transaction.

import type {DuckDBAppender, DuckDBConnection} from "@duckdb/node-api";
import type {EpisodeRecord, RatingRecord} from "./records.js";

function str(a: DuckDBAppender, v: string | null): void {
  if (v === null) a.appendNull();
  else a.appendVarchar(v);
}

function int(a: DuckDBAppender, v: number | null): void {
  if (v === null) a.appendNull();
  else a.appendInteger(v);
}

export class StoreWriter {
  private constructor(
    private readonly episodes: DuckDBAppender,
    private readonly participants: DuckDBAppender,
    private readonly messages: DuckDBAppender,
    private readonly ratings: DuckDBAppender,
  ) {}

  static async open(conn: DuckDBConnection): Promise<StoreWriter> {
    return new StoreWriter(
      await conn.createAppender("episodes"),
      await conn.createAppender("participants"),
      await conn.createAppender("messages"),
      await conn.createAppender("ratings"),
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
    });
    for (const r of e.ratings) this.rating(r, sourceId);
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
    for (const a of [this.episodes, this.participants, this.messages, this.ratings]) a.flushSync();
  }

  close(): void {
    for (const a of [this.episodes, this.participants, this.messages, this.ratings]) a.closeSync();
  }
}
