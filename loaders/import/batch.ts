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
    const e = this.e;
    this.line.push(line);
    e.episode_id.push(ep.episode_id);
    e.benchmarkCode.push(this.code(ep.benchmark));
    e.scenario_id.push(ep.scenario_id);
    e.scenario.push(ep.scenario);
    e.codename.push(ep.codename);
    e.task_type.push(ep.task_type);
    e.chain_id.push(ep.chain_id);
    e.chain_index.push(int(ep.chain_index));
    e.split.push(ep.split);
    e.tag.push(ep.tag);
    e.synthetic.push(ep.synthetic ? 1 : 0);
    e.settings.push(ep.settings ? JSON.stringify(ep.settings) : null);
    e.judgeFailed.push(ep.settings?.judge_failed ? 1 : 0);
    this.chars += (ep.scenario?.length ?? 0) + 200;
    const p = this.p;
    for (const x of ep.participants) {
      p.agent.push(x.agent);
      p.agent_ref.push(x.agent_ref);
      p.modelCode.push(this.code(x.model));
      p.character.push(x.character);
      p.goal.push(x.goal);
      p.background.push(x.background);
      this.chars += (x.goal?.length ?? 0) + (x.background?.length ?? 0);
    }
    p.start.push(p.agent.length);
    const m = this.m;
    for (const x of ep.messages) {
      m.turn.push(x.turn);
      m.agent.push(int(x.agent));
      m.actionCode.push(this.code(x.action_type));
      m.content.push(x.content);
      m.words.push(int(spokenWords(x.action_type, x.agent, x.content)));
      this.chars += x.content.length;
    }
    m.start.push(m.turn.length);
    const r = this.r;
    for (const x of ep.ratings) {
      if (x.episode_id !== ep.episode_id) throw new Error(`episode ${ep.episode_id} carries a rating of ${x.episode_id}; batches store an episode's own ratings only`);
      r.agent.push(x.agent);
      r.dimensionCode.push(this.code(x.dimension));
      r.raterCode.push(this.code(x.rater));
      r.raterKindCode.push(this.code(x.rater_kind));
      r.value.push(x.value);
      r.rationale.push(x.rationale);
      r.runCode.push(this.code(x.run_id));
      this.chars += x.rationale?.length ?? 0;
    }
    r.start.push(r.agent.length);
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
