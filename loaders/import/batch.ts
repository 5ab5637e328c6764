// Episodes packed by column, so a worker thread can hand many of them to the
// main thread in one message: typed arrays travel without copying, repeated
// strings (dimension, rater, model, action type) travel once per batch as a
// dictionary, and the main thread only walks arrays to append rows.

import {spokenWords} from "../store/spoken-words.js";
import type {EpisodeRecord} from "./records.js";

/** Stands for NULL in an integer column (seats and chain positions are never this small). */
export const NULL_INT = -2147483648;

export interface EpisodeBatch {
  /** Episodes in the batch. */
  count: number;
  /** Distinct short strings of the batch; `*Code` columns index into it. */
  dict: string[];
  /** Per episode: its line, relative to the start of the file segment it came from (the reader makes it absolute). */
  line: Int32Array;
  /** Bytes of the file read once this batch is done, for progress. */
  bytesRead: number;
  episodes: {
    episode_id: string[];
    benchmarkCode: Int32Array;
    scenario_id: (string | null)[];
    scenario: (string | null)[];
    codename: (string | null)[];
    task_type: (string | null)[];
    chain_id: (string | null)[];
    chain_index: Int32Array;
    split: (string | null)[];
    tag: (string | null)[];
    synthetic: Uint8Array;
    /** settings as JSON text, already serialised by the worker. */
    settings: (string | null)[];
    judgeFailed: Uint8Array;
  };
  /** Rows of episode i are [start[i], start[i + 1]) in each child table. */
  participants: {
    start: Int32Array;
    agent: Int32Array;
    agent_ref: (string | null)[];
    modelCode: Int32Array;
    character: (string | null)[];
    goal: (string | null)[];
    background: (string | null)[];
  };
  messages: {
    start: Int32Array;
    turn: Int32Array;
    agent: Int32Array;
    actionCode: Int32Array;
    content: string[];
    /** The message's spoken_words count (spokenWords), counted here in the worker; NULL_INT: the message gets no row. */
    words: Int32Array;
  };
  ratings: {
    start: Int32Array;
    agent: Int32Array;
    dimensionCode: Int32Array;
    raterCode: Int32Array;
    raterKindCode: Int32Array;
    value: Float64Array;
    rationale: (string | null)[];
    runCode: Int32Array;
  };
}

/** The buffers a batch can hand over instead of copying (postMessage transfer list). */
export function transferables(b: EpisodeBatch): ArrayBuffer[] {
  const arrays = [
    b.line, b.episodes.benchmarkCode, b.episodes.chain_index, b.episodes.synthetic, b.episodes.judgeFailed,
    b.participants.start, b.participants.agent, b.participants.modelCode,
    b.messages.start, b.messages.turn, b.messages.agent, b.messages.actionCode, b.messages.words,
    b.ratings.start, b.ratings.agent, b.ratings.dimensionCode, b.ratings.raterCode, b.ratings.raterKindCode, b.ratings.value, b.ratings.runCode,
  ];
  return arrays.map((a) => a.buffer as ArrayBuffer);
}

const int = (v: number | null): number => (v === null ? NULL_INT : v);

/** An episode's own columns, as EpisodeRecord holds them. */
export type EpisodeFields = Pick<EpisodeRecord, "scenario_id" | "scenario" | "codename" | "task_type" | "chain_id" | "chain_index" | "split" | "tag" | "synthetic" | "settings">;

/** Collects episodes into a batch (in the worker). */
export class BatchBuilder {
  private dict: string[] = [];
  private codes = new Map<string, number>();
  private line: number[] = [];
  private e = {
    episode_id: [] as string[], benchmarkCode: [] as number[], scenario_id: [] as (string | null)[], scenario: [] as (string | null)[],
    codename: [] as (string | null)[], task_type: [] as (string | null)[], chain_id: [] as (string | null)[], chain_index: [] as number[],
    split: [] as (string | null)[], tag: [] as (string | null)[], synthetic: [] as number[], settings: [] as (string | null)[], judgeFailed: [] as number[],
  };
  private p = {start: [0], agent: [] as number[], agent_ref: [] as (string | null)[], modelCode: [] as number[], character: [] as (string | null)[], goal: [] as (string | null)[], background: [] as (string | null)[]};
  private m = {start: [0], turn: [] as number[], agent: [] as number[], actionCode: [] as number[], content: [] as string[], words: [] as number[]};
  private r = {
    start: [0], agent: [] as number[], dimensionCode: [] as number[], raterCode: [] as number[], raterKindCode: [] as number[],
    value: [] as number[], rationale: [] as (string | null)[], runCode: [] as number[],
  };
  /** Text held by the batch so far, a measure of its size. */
  chars = 0;
  /** Where the episode begun and not yet ended started, in each list (for dropEpisode). */
  private mark: {line: number; p: number; m: number; r: number; chars: number} | null = null;

  get count(): number {
    return this.line.length;
  }

  private code(s: string): number {
    let c = this.codes.get(s);
    if (c === undefined) {
      c = this.dict.length;
      this.dict.push(s);
      this.codes.set(s, c);
    }
    return c;
  }

  add(ep: EpisodeRecord, line: number): void {
    if (ep.tables && Object.keys(ep.tables).length) throw new Error("episode batches carry no benchmark tables; read this format without workers");
    this.begin();
    this.episode(line, ep.episode_id, ep.benchmark, ep);
    for (const x of ep.participants) this.participant(x.agent, x.agent_ref, x.model, x.character, x.goal, x.background);
    for (const x of ep.messages) this.message(x.turn, x.agent, x.action_type, x.content);
    for (const x of ep.ratings) {
      if (x.episode_id !== ep.episode_id) throw new Error(`episode ${ep.episode_id} carries a rating of ${x.episode_id}; batches store an episode's own ratings only`);
      this.rating(x.agent, x.dimension, x.rater, x.rater_kind, x.value, x.rationale, x.run_id);
    }
    this.endEpisode();
  }

  /**
   * Starts an episode: its episode row, participants, messages and ratings
   * follow (in any order: each goes to its own columns), then endEpisode. A
   * reader that builds them straight from its input (no EpisodeRecord in
   * between) calls these itself, and dropEpisode when the input turns out bad
   * half way.
   */
  begin(): void {
    this.mark = {line: this.line.length, p: this.p.agent.length, m: this.m.turn.length, r: this.r.agent.length, chars: this.chars};
  }

  episode(line: number, id: string, benchmark: string, f: EpisodeFields): void {
    const e = this.e;
    this.line.push(line);
    e.episode_id.push(id);
    e.benchmarkCode.push(this.code(benchmark));
    e.scenario_id.push(f.scenario_id);
    e.scenario.push(f.scenario);
    e.codename.push(f.codename);
    e.task_type.push(f.task_type);
    e.chain_id.push(f.chain_id);
    e.chain_index.push(int(f.chain_index));
    e.split.push(f.split);
    e.tag.push(f.tag);
    e.synthetic.push(f.synthetic ? 1 : 0);
    e.settings.push(f.settings ? JSON.stringify(f.settings) : null);
    e.judgeFailed.push(f.settings?.judge_failed ? 1 : 0);
    this.chars += (f.scenario?.length ?? 0) + 200;
  }

  participant(agent: number, agentRef: string | null, model: string, character: string | null, goal: string | null, background: string | null): void {
    const p = this.p;
    p.agent.push(agent);
    p.agent_ref.push(agentRef);
    p.modelCode.push(this.code(model));
    p.character.push(character);
    p.goal.push(goal);
    p.background.push(background);
    this.chars += (goal?.length ?? 0) + (background?.length ?? 0);
  }

  message(turn: number, agent: number | null, actionType: string, content: string): void {
    const m = this.m;
    m.turn.push(turn);
    m.agent.push(int(agent));
    m.actionCode.push(this.code(actionType));
    m.content.push(content);
    m.words.push(int(spokenWords(actionType, agent, content)));
    this.chars += content.length;
  }

  rating(agent: number, dimension: string, rater: string, raterKind: string, value: number, rationale: string | null, runId: string): void {
    const r = this.r;
    r.agent.push(agent);
    r.dimensionCode.push(this.code(dimension));
    r.raterCode.push(this.code(rater));
    r.raterKindCode.push(this.code(raterKind));
    r.value.push(value);
    r.rationale.push(rationale);
    r.runCode.push(this.code(runId));
    this.chars += rationale?.length ?? 0;
  }

  /** Ratings of the current episode from the `from`-th on (a count from ratingCount) are dropped. */
  dropRatingsFrom(from: number): void {
    const r = this.r;
    for (const column of [r.agent, r.dimensionCode, r.raterCode, r.raterKindCode, r.value, r.rationale, r.runCode]) column.length = from;
  }

  /** Rating rows held so far (for dropRatingsFrom). */
  get ratingCount(): number {
    return this.r.agent.length;
  }

  endEpisode(): void {
    this.p.start.push(this.p.agent.length);
    this.m.start.push(this.m.turn.length);
    this.r.start.push(this.r.agent.length);
    this.mark = null;
  }

  /** Takes back the rows of the episode begun and not ended, as if it had never started. */
  dropEpisode(): void {
    const at = this.mark;
    if (!at) return;
    this.line.length = at.line;
    for (const column of Object.values(this.e)) column.length = at.line;
    for (const [key, column] of Object.entries(this.p)) if (key !== "start") column.length = at.p;
    for (const [key, column] of Object.entries(this.m)) if (key !== "start") column.length = at.m;
    for (const [key, column] of Object.entries(this.r)) if (key !== "start") column.length = at.r;
    this.chars = at.chars;
    this.mark = null;
  }

  /** The batch so far; the builder starts afresh. */
  take(bytesRead: number): EpisodeBatch {
    const {e, p, m, r} = this;
    const batch: EpisodeBatch = {
      count: this.line.length,
      dict: this.dict,
      line: Int32Array.from(this.line),
      bytesRead,
      episodes: {
        ...e, benchmarkCode: Int32Array.from(e.benchmarkCode), chain_index: Int32Array.from(e.chain_index),
        synthetic: Uint8Array.from(e.synthetic), judgeFailed: Uint8Array.from(e.judgeFailed),
      },
      participants: {...p, start: Int32Array.from(p.start), agent: Int32Array.from(p.agent), modelCode: Int32Array.from(p.modelCode)},
      messages: {
        ...m, start: Int32Array.from(m.start), turn: Int32Array.from(m.turn), agent: Int32Array.from(m.agent), actionCode: Int32Array.from(m.actionCode),
        words: Int32Array.from(m.words),
      },
      ratings: {
        ...r, start: Int32Array.from(r.start), agent: Int32Array.from(r.agent), dimensionCode: Int32Array.from(r.dimensionCode),
        raterCode: Int32Array.from(r.raterCode), raterKindCode: Int32Array.from(r.raterKindCode), value: Float64Array.from(r.value), runCode: Int32Array.from(r.runCode),
      },
    };
    Object.assign(this, new BatchBuilder());
    return batch;
  }
}

/** Participant names by seat order of episode i of a batch (as the session's seat lookup wants them). */
export function batchNames(b: EpisodeBatch, i: number): string[] {
  const names: string[] = [];
  for (let k = b.participants.start[i]; k < b.participants.start[i + 1]; k++) names.push(b.participants.character[k] ?? "");
  return names;
}

/** Episode i of a batch as a record again (for tests and for anything that wants the plain shape). */
export function batchEpisode(b: EpisodeBatch, i: number): EpisodeRecord {
  const e = b.episodes, p = b.participants, m = b.messages, r = b.ratings, d = b.dict;
  const nul = (v: number) => (v === NULL_INT ? null : v);
  const range = (start: Int32Array) => Array.from({length: start[i + 1] - start[i]}, (_, k) => start[i] + k);
  return {
    episode_id: e.episode_id[i], benchmark: d[e.benchmarkCode[i]], scenario_id: e.scenario_id[i], scenario: e.scenario[i], codename: e.codename[i],
    task_type: e.task_type[i], chain_id: e.chain_id[i], chain_index: nul(e.chain_index[i]), split: e.split[i], tag: e.tag[i],
    synthetic: e.synthetic[i] === 1, settings: e.settings[i] === null ? null : (JSON.parse(e.settings[i]!) as Record<string, unknown>),
    participants: range(p.start).map((k) => ({
      agent: p.agent[k], agent_ref: p.agent_ref[k], model: d[p.modelCode[k]], character: p.character[k], goal: p.goal[k], background: p.background[k],
    })),
    messages: range(m.start).map((k) => ({turn: m.turn[k], agent: nul(m.agent[k]), action_type: d[m.actionCode[k]], content: m.content[k]})),
    ratings: range(r.start).map((k) => ({
      episode_id: e.episode_id[i], agent: r.agent[k], dimension: d[r.dimensionCode[k]], rater: d[r.raterCode[k]],
      rater_kind: d[r.raterKindCode[k]] as EpisodeRecord["ratings"][number]["rater_kind"], value: r.value[k], rationale: r.rationale[k], run_id: d[r.runCode[k]],
    })),
  };
}
