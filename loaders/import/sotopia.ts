// Format `sotopia`: SOTOPIA episodes, either as the public JSONL dump (one
// episode a line) or as EpisodeLog JSON files written by sotopia's local
// storage backend (one episode a file). See docs/formats.md.

import {availableParallelism} from "node:os";
import {scoreProblem, sotopiaDimension, SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {RecordProblem} from "./errors.js";
import {readJsonDocument, readJsonl} from "./files.js";
import {arrayElementLines} from "./json-text.js";
import {readJsonlInWorkers} from "./jsonl-workers.js";
import type {BatchBuilder, EpisodeFields} from "./batch.js";
import {emptyEpisode, type EpisodeRecord, type RaterKind, type ReadItem} from "./records.js";
import type {ImportFormat, ReadContext} from "./format.js";
import {parseAction, parseContext, parseReasoning, parseRenderedConversation} from "./sotopia-text.js";
import {asArray, asNonEmptyString, asNumber, asObject, asString, optionalString, type Json, type JsonObject} from "./validate.js";

const DIMENSION_LIST = SOTOPIA_DIMENSIONS.map((d) => d.key).join(", ");

/** The judge's scores for one seat, or null when the judge failed (a bare number in place of the scores). */
function seatScores(entry: Json, field: string): Map<string, number> | null {
  let scores: JsonObject;
  if (typeof entry === "number") return null;
  if (Array.isArray(entry)) {
    if (entry.length !== 2) throw new RecordProblem(field, `expected [overall, {dimension: score}], got an array of ${entry.length}`);
    asNumber(entry[0], `${field}[0]`);
    field = `${field}[1]`;
    scores = asObject(entry[1], field);
  } else {
    scores = asObject(entry, field);
  }
  const out = new Map<string, number>();
  for (const [key, value] of Object.entries(scores)) {
    if (key === "overall_score") continue; // derived; the workbench recomputes it
    const dim = sotopiaDimension(key);
    if (!dim) throw new RecordProblem(`${field}.${key}`, `unknown dimension (expected one of ${DIMENSION_LIST})`);
    const problem = scoreProblem(dim, value);
    if (problem) throw new RecordProblem(`${field}.${key}`, problem);
    out.set(key, value as number);
  }
  return out;
}

/**
 * Where a record's rows go: into an EpisodeRecord's lists (RecordRows), or,
 * in a parse worker, straight into the columns of a batch (BatchBuilder), so
 * the dump's hot path builds no record objects on the way.
 */
interface EpisodeRows {
  participant(agent: number, agentRef: string | null, model: string, character: string | null, goal: string | null, background: string | null): void;
  message(turn: number, agent: number | null, actionType: string, content: string): void;
  rating(agent: number, dimension: string, rater: string, raterKind: RaterKind, value: number, rationale: string | null, runId: string): void;
  readonly ratingCount: number;
  dropRatingsFrom(count: number): void;
}

/** Rows into the lists of `episode`. */
class RecordRows implements EpisodeRows {
  constructor(private readonly episode: EpisodeRecord) {}

  participant(agent: number, agent_ref: string | null, model: string, character: string | null, goal: string | null, background: string | null): void {
    this.episode.participants.push({agent, agent_ref, model, character, goal, background});
  }

  message(turn: number, agent: number | null, action_type: string, content: string): void {
    this.episode.messages.push({turn, agent, action_type, content});
  }

  rating(agent: number, dimension: string, rater: string, rater_kind: RaterKind, value: number, rationale: string | null, run_id: string): void {
    this.episode.ratings.push({episode_id: this.episode.episode_id, agent, dimension, rater, rater_kind, value, rationale, run_id});
  }

  get ratingCount(): number {
    return this.episode.ratings.length;
  }

  dropRatingsFrom(count: number): void {
    this.episode.ratings.length = count;
  }
}

/** The judge's scores of `seats` participants from `rewards` into `rows`; true if the judge failed (then no scores are kept). */
function ratingsInto(rows: EpisodeRows, seats: number, rewards: Json[], field: string, judge: string, reasoning: string | null): boolean {
  if (rewards.length !== seats) {
    throw new RecordProblem(field, `expected one entry per agent (${seats}), got ${rewards.length}`);
  }
  const rationales = reasoning ? parseReasoning(reasoning) : new Map<number, Map<string, string>>();
  const first = rows.ratingCount;
  let failed = false;
  for (let i = 0; i < rewards.length; i++) {
    const scores = seatScores(rewards[i], `${field}[${i}]`);
    if (!scores) {
      failed = true;
      continue;
    }
    const seat = rationales.get(i + 1);
    for (const [dimension, value] of scores) rows.rating(i + 1, dimension, judge, "llm", value, seat?.get(dimension) ?? null, "");
  }
  // A judge that failed for one seat failed for the episode: keep no partial scores.
  if (failed) rows.dropRatingsFrom(first);
  return failed;
}

/** Reads the judge's scores from `record[field]` into `rows`, noting a failed judge or an unscored episode in `settings`. */
function scoreEpisode(rows: EpisodeRows, seats: number, record: JsonObject, field: string, judge: string, settings: Record<string, unknown>): void {
  const rewards = record[field] === undefined || record[field] === null ? [] : asArray(record[field], field);
  if (!rewards.length) {
    settings.unscored = true;
    return;
  }
  const reasoning = optionalString(record.reasoning, "reasoning");
  if (ratingsInto(rows, seats, rewards, field, judge, reasoning)) settings.judge_failed = true;
}

/** Seat order: who the environment addressed first, else the given fallback names. */
function seatNames(messages: Json[] | null, fallback: string[]): string[] {
  const first = messages?.[0];
  if (Array.isArray(first)) {
    const names: string[] = [];
    for (const m of first) {
      if (Array.isArray(m) && m[0] === "Environment" && typeof m[1] === "string" && !names.includes(m[1])) names.push(m[1]);
    }
    if (names.length >= 2) return names;
  }
  return fallback;
}

function messagesInto(rows: EpisodeRows, turns: Json[], names: string[], field: string): void {
  const seat = new Map(names.map((n, i) => [n, i + 1]));
  for (let t = 0; t < turns.length; t++) {
    const turn = turns[t];
    if (!Array.isArray(turn)) asArray(turn, `${field}[${t}]`);
    const messages = turn as Json[];
    for (let j = 0; j < messages.length; j++) {
      const triple = messages[j];
      // Field names are spelt out only for a message that fails: building them for every message cost more than the checks.
      if (!Array.isArray(triple) || triple.length !== 3 || typeof triple[0] !== "string" || typeof triple[2] !== "string") messageProblem(triple, `${field}[${t}][${j}]`);
      const sender = (triple as Json[])[0] as string;
      // Environment→agent messages are observations that repeat the transcript; the context they carry is kept on the episode.
      if (sender === "Environment") continue;
      const agent = seat.get(sender);
      if (agent === undefined) throw new RecordProblem(`${field}[${t}][${j}][0]`, `sender ${JSON.stringify(sender)} is not a participant (${names.join(", ")})`);
      const {action_type, content} = parseAction((triple as Json[])[2] as string);
      rows.message(t, agent, action_type, content);
    }
  }
}

/** Throws the problem of a message that is not [sender, receiver, text]. */
function messageProblem(m: Json, f: string): never {
  const triple = asArray(m, f);
  if (triple.length !== 3) throw new RecordProblem(f, `expected [sender, receiver, text], got ${triple.length} items`);
  asString(triple[0], `${f}[0]`);
  asString(triple[2], `${f}[2]`);
  throw new Error(`${f}: messageProblem called on a good message`);
}

function modelsOf(v: Json | undefined, field: string): {judge: string; agents: string[]} {
  const list = asArray(v, field);
  if (list.length < 3) throw new RecordProblem(field, `expected [judge model, agent 1 model, agent 2 model], got ${list.length} names`);
  const names = list.map((m, i) => asNonEmptyString(m, `${field}[${i}]`));
  return {judge: names[0], agents: names.slice(1)};
}

/**
 * One record of the public JSONL dump: its participants, messages and scores
 * go to the rows `rowsOf` gives for its id; its own columns are returned.
 * Every check of a dump record is here, in the order its problems are found.
 */
function readDumpRecord(record: JsonObject, rowsOf: (id: string) => EpisodeRows): {id: string; fields: EpisodeFields} {
  const id = asNonEmptyString(record.episode_id, "episode_id");
  const rows = rowsOf(id);
  const {judge, agents} = modelsOf(record.experiment_model_name_pairs, "experiment_model_name_pairs");
  const rawMessages = record.raw_messages === undefined ? [] : asArray(record.raw_messages, "raw_messages");
  const backgrounds = record.agents_background ? asObject(record.agents_background, "agents_background") : {};
  const goals = record.social_goals ? asObject(record.social_goals, "social_goals") : {};
  const names = seatNames(rawMessages, Object.keys(backgrounds).length ? Object.keys(backgrounds) : Object.keys(goals));
  if (names.length !== agents.length) {
    throw new RecordProblem("agents_background", `found ${names.length} participant names for ${agents.length} agent models`);
  }
  const agentIds = record.agent_ids ? asArray(record.agent_ids, "agent_ids") : [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const agentRef = optionalString(agentIds[i], `agent_ids[${i}]`);
    const goal = optionalString(goals[name], `social_goals.${name}`);
    rows.participant(i + 1, agentRef, agents[i], name, goal, optionalString(backgrounds[name], `agents_background.${name}`));
  }
  const scenario_id = optionalString(record.environment_id, "environment_id");
  const scenario = optionalString(record.scenario, "scenario");
  const codename = optionalString(record.codename, "codename");
  const tag = optionalString(record.experiment_tag, "experiment_tag");
  const synthetic = record.synthetic === true;
  messagesInto(rows, rawMessages, names, "raw_messages");
  const settings: Record<string, unknown> = {judge};
  scoreEpisode(rows, names.length, record, record.raw_rewards !== undefined ? "raw_rewards" : "rewards", judge, settings);
  return {id, fields: {scenario_id, scenario, codename, task_type: null, chain_id: null, chain_index: null, split: null, tag, synthetic, settings}};
}

/** One record of the public JSONL dump. */
export function episodeFromDump(record: JsonObject): EpisodeRecord {
  let episode = emptyEpisode("", "sotopia");
  const {fields} = readDumpRecord(record, (id) => new RecordRows((episode = emptyEpisode(id, "sotopia"))));
  return Object.assign(episode, fields);
}

/**
 * One line of the dump straight into a batch's columns: the rows
 * episodeFromDump would give, under the same checks; a problem leaves the
 * batch as it was. False for a record in EpisodeLog shape, which goes through
 * episodeItem instead.
 */
export function dumpIntoBatch(doc: Json, line: number, batch: BatchBuilder): boolean {
  const record = asObject(doc, "(record)");
  if ("pk" in record) return false;
  batch.begin();
  try {
    const {id, fields} = readDumpRecord(record, () => batch);
    batch.episode(line, id, "sotopia", fields);
    batch.endEpisode();
  } catch (e) {
    batch.dropEpisode();
    throw e;
  }
  return true;
}

/** One EpisodeLog as sotopia's local storage writes it. Partial logs with only `rewards_prompt` get their transcript from it. */
export function episodeFromEpisodeLog(record: JsonObject): EpisodeRecord {
  const episode = emptyEpisode(asNonEmptyString(record.pk, "pk"), "sotopia");
  const {judge, agents} = modelsOf(record.models, "models");
  const messages = record.messages === undefined || record.messages === null ? [] : asArray(record.messages, "messages");
  const prompt = optionalString(record.rewards_prompt, "rewards_prompt") ?? "";
  const firstContext = (() => {
    const first = messages[0];
    if (Array.isArray(first) && Array.isArray(first[0]) && typeof first[0][2] === "string") return first[0][2];
    return prompt;
  })();
  const context = parseContext(firstContext);
  const names = seatNames(messages, context.names);
  if (names.length !== agents.length) {
    throw new RecordProblem(messages.length ? "messages" : "rewards_prompt", `found ${names.length} participant names for ${agents.length} agent models`);
  }
  // Each agent's own context names its goal; the other's shows "Unknown".
  const goals = new Map(context.goals);
  const firstTurn = Array.isArray(messages[0]) ? messages[0] : [];
  for (const m of firstTurn) {
    if (Array.isArray(m) && m[0] === "Environment" && typeof m[1] === "string" && typeof m[2] === "string") {
      const own = parseContext(m[2]).goals.get(m[1]);
      if (own) goals.set(m[1], own);
    }
  }
  const agentIds = record.agents ? asArray(record.agents, "agents") : [];
  episode.participants = names.map((name, i) => ({
    agent: i + 1,
    agent_ref: optionalString(agentIds[i], `agents[${i}]`),
    model: agents[i],
    character: name,
    goal: goals.get(name) ?? null,
    background: context.backgrounds.get(name) ?? null,
  }));
  episode.scenario_id = optionalString(record.environment, "environment");
  episode.scenario = context.scenario;
  episode.tag = optionalString(record.tag, "tag");
  episode.synthetic = record.synthetic === true;
  const settings: Record<string, unknown> = {judge};
  const rows = new RecordRows(episode);
  if (messages.length) {
    messagesInto(rows, messages, names, "messages");
  } else if (prompt) {
    const seat = new Map(names.map((n, i) => [n, i + 1]));
    episode.messages = parseRenderedConversation(prompt, names).map((t) => ({
      turn: t.turn, agent: t.speaker ? seat.get(t.speaker)! : null, ...t.action,
    }));
    settings.transcript_from = "rewards_prompt";
  }
  scoreEpisode(rows, episode.participants.length, record, "rewards", judge, settings);
  episode.settings = settings;
  return episode;
}

/** One record of a dump line or an EpisodeLog file, normalised. */
export const episodeItem = (doc: Json, line: number, fromLog: boolean): ReadItem => {
  const record = asObject(doc, "(record)");
  return {kind: "episode", line, episode: fromLog || "pk" in record ? episodeFromEpisodeLog(record) : episodeFromDump(record)};
};

/**
 * How a JSONL dump is read: a file of at least `minBytes` is parsed by worker
 * threads, a smaller one on this thread, where starting a worker (~0.1 s of
 * CPU) would cost more than it saves. The main thread still appends every row
 * (DuckDB's appender is bound to the import's connection), so one core stays
 * with it: on 2 cores one worker, which measured cheaper in total CPU than two.
 * SOCIOMETER_IMPORT_WORKERS sets the number of workers (0: never).
 */
export const dumpReading = {
  minBytes: 32 * 2 ** 20,
  workers: Math.max(1, Math.min(2, availableParallelism() - 1)),
  segmentBytes: 8 * 2 ** 20,
};

const WORKER_MODULE = new URL("./sotopia-worker.ts", import.meta.url);

/** The records of a JSONL dump, in file order. */
export function readDump(ctx: Pick<ReadContext, "onProgress" | "source">, plan = dumpReading): AsyncIterable<ReadItem> | Iterable<ReadItem> {
  const fromEnv = process.env.SOCIOMETER_IMPORT_WORKERS;
  const workers = fromEnv !== undefined && fromEnv !== "" ? Number(fromEnv) : plan.workers;
  if (!Number.isInteger(workers) || workers < 0) throw new Error(`SOCIOMETER_IMPORT_WORKERS must be a whole number, not ${JSON.stringify(fromEnv)}`);
  const toItem = (doc: Json, line: number) => episodeItem(doc, line, false);
  if (workers === 0 || ctx.source.size < plan.minBytes) return readJsonl(ctx.source, ctx.onProgress, toItem);
  return readJsonlInWorkers(ctx.source, ctx.onProgress, WORKER_MODULE, toItem, {workers, segmentBytes: plan.segmentBytes}, dumpIntoBatch);
}

async function* readSotopia(path: string, ctx: ReadContext): AsyncGenerator<ReadItem> {
  if (!path.endsWith(".json")) {
    yield* readDump(ctx);
    return;
  }
  // One EpisodeLog (or an array of them) per file; each record is accepted or rejected on its own.
  const read = readJsonDocument(ctx.source);
  if ("kind" in read) {
    yield read;
    return;
  }
  const {text, doc} = read;
  if (!Array.isArray(doc)) {
    yield attempt(() => episodeItem(doc, 1, true), 1, (field) => field, doc);
    return;
  }
  const lines = arrayElementLines(text);
  for (const [i, record] of doc.entries()) {
    // An element is named by its index, as in the array: [2].models[0].
    const inArray = (field: string | null) => (field === null || field === "(record)" ? `[${i}]` : `[${i}].${field}`);
    yield attempt(() => episodeItem(record, lines[i] ?? 1, true), lines[i] ?? 1, inArray, record);
  }
}

/** The record `make` builds, or a reject at `line` with the field named by `fieldOf`. */
function attempt(make: () => ReadItem, line: number, fieldOf: (field: string | null) => string | null, record: Json): ReadItem {
  try {
    return make();
  } catch (e) {
    if (!(e instanceof RecordProblem)) throw e;
    return {kind: "reject", line, field: fieldOf(e.field), problem: e.problem, raw: JSON.stringify(record).slice(0, 2000)};
  }
}

/**
 * Bump when a change to this reader (sotopia-text.ts included) changes the rows
 * a file gives: a stored file read by an older version is read again on its
 * next import (session.ts). 2: a last `Turn #N,` line ends the annotation
 * study's transcripts, and a model's quoted transcript no longer splits into turns.
 */
export const SOTOPIA_READER_VERSION = 2;

export const sotopiaFormat: ImportFormat = {
  name: "sotopia",
  readerVersion: SOTOPIA_READER_VERSION,
  description: "SOTOPIA episodes: the public JSONL dump (*.jsonl) or sotopia EpisodeLog files (*.json)",
  read: readSotopia,
};
