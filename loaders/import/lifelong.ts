// Format `lifelong`: LIFELONG-SOTOPIA episodes as the workbench's own JSONL,
// one episode of a chain per line (docs/formats.md, docs/schema/lifelong.schema.json).

import {CHECKPOINT_SETS, checkpointDimension, dimensionOf, PAPER_CHECKPOINTS, scoreProblem, type CheckpointSet} from "../../src/lib/dimensions.js";
import {RecordProblem} from "./errors.js";
import {readJsonl} from "./files.js";
import {emptyEpisode, type EpisodeRecord, type RaterKind, type RatingRecord, type ReadItem} from "./records.js";
import type {ImportFormat, ReadContext} from "./format.js";
import {asArray, asNonEmptyString, asNumber, asObject, asString, asWholeNumber, optionalString, type Json, type JsonObject} from "./validate.js";

export const BENCHMARK = "lifelong-sotopia";
export const MEMORY_MODES = ["full", "summary", "none"] as const;
const RATER_KINDS: readonly RaterKind[] = ["llm", "human", "rule"];

/** The eight labels of a checklist, each 0 (fails) or 1 (passes), as ratings. */
export function checkpointRatings(labels: Json, field: string, set: CheckpointSet, base: Omit<RatingRecord, "dimension" | "value">): RatingRecord[] {
  const list = asArray(labels, field);
  if (list.length !== set.checkpoints.length) {
    throw new RecordProblem(field, `expected ${set.checkpoints.length} checkpoint labels (${set.name} checklist), got ${list.length}`);
  }
  return list.map((v, i) => {
    if (v !== 0 && v !== 1) throw new RecordProblem(`${field}[${i}]`, `a checkpoint label is 1 (passes) or 0 (fails), got ${typeof v === "number" ? v : JSON.stringify(v)}`);
    return {...base, dimension: checkpointDimension(set, set.checkpoints[i]!.key), value: v, rationale: null};
  });
}

/** Every checkpoint episode's chain position must be unique: `chain_id`, memory mode and the models make a chain. */
export const chainKey = (e: EpisodeRecord): string =>
  [e.chain_id, e.settings?.memory_mode ?? "", ...e.participants.map((p) => p.model)].join("\u0000");

/** LIFELONG scores come in whole or half points (docs/formats.md); any other value is refused, never rounded. */
function halfPointProblem(dim: {abbrev: string; lo: number; hi: number}, value: number): string | null {
  if (Number.isInteger(value * 2)) return null;
  return `${value} is not a whole or half point (${dim.abbrev} takes ${dim.lo}, ${dim.lo + 0.5}, ${dim.lo + 1}, …, ${dim.hi})`;
}

function ratingsOf(episodeId: string, entries: Json[], seats: number): RatingRecord[] {
  const out: RatingRecord[] = [];
  entries.forEach((x, i) => {
    const f = `ratings[${i}]`;
    const o = asObject(x, f);
    const agent = asNumber(o.agent, `${f}.agent`);
    if (!Number.isInteger(agent) || agent < 1 || agent > seats) throw new RecordProblem(`${f}.agent`, `expected a seat from 1 to ${seats}, got ${agent}`);
    const rater = asNonEmptyString(o.rater, `${f}.rater`);
    const rater_kind = asString(o.rater_kind ?? "llm", `${f}.rater_kind`) as RaterKind;
    if (!RATER_KINDS.includes(rater_kind)) throw new RecordProblem(`${f}.rater_kind`, `expected one of ${RATER_KINDS.join(", ")}`);
    const run_id = optionalString(o.run_id, `${f}.run_id`) ?? "";
    const base = {episode_id: episodeId, agent, rater, rater_kind, run_id, rationale: null};
    const scores = o.scores === undefined ? {} : asObject(o.scores, `${f}.scores`);
    const rationales = o.rationales === undefined ? {} : asObject(o.rationales, `${f}.rationales`);
    for (const [key, value] of Object.entries(scores)) {
      const dim = dimensionOf(BENCHMARK, key);
      if (!dim || dim.kind !== "likert") throw new RecordProblem(`${f}.scores.${key}`, "unknown score (expected believability, goal or another SOTOPIA-EVAL dimension)");
      const problem = scoreProblem(dim, value) ?? halfPointProblem(dim, value as number);
      if (problem) throw new RecordProblem(`${f}.scores.${key}`, problem);
      out.push({...base, dimension: key, value: value as number, rationale: optionalString(rationales[key], `${f}.rationales.${key}`)});
    }
    if (o.checkpoints !== undefined) {
      const setName = asString(o.checkpoint_set ?? PAPER_CHECKPOINTS.name, `${f}.checkpoint_set`);
      const set = CHECKPOINT_SETS.find((s) => s.name === setName);
      if (!set) throw new RecordProblem(`${f}.checkpoint_set`, `unknown checklist (expected one of ${CHECKPOINT_SETS.map((s) => s.name).join(", ")})`);
      for (const r of checkpointRatings(o.checkpoints, `${f}.checkpoints`, set, base)) out.push(r);
    }
  });
  return out;
}

export function episodeFromLifelong(r: JsonObject): EpisodeRecord {
  const episode = emptyEpisode(asNonEmptyString(r.episode_id, "episode_id"), BENCHMARK);
  episode.chain_id = asNonEmptyString(r.chain_id, "chain_id");
  episode.chain_index = asWholeNumber(r.chain_index, "chain_index", 1);
  const memory = asString(r.memory_mode, "memory_mode");
  if (!(MEMORY_MODES as readonly string[]).includes(memory)) throw new RecordProblem("memory_mode", `expected one of ${MEMORY_MODES.join(", ")}, got ${JSON.stringify(memory)}`);
  if (r.harder !== undefined && typeof r.harder !== "boolean") throw new RecordProblem("harder", "expected true or false");
  episode.scenario_id = optionalString(r.scenario_id, "scenario_id");
  episode.scenario = optionalString(r.scenario, "scenario");
  episode.synthetic = r.synthetic === true;
  episode.participants = asArray(r.agents, "agents").map((a, i) => {
    const o = asObject(a, `agents[${i}]`);
    return {
      agent: i + 1, agent_ref: optionalString(o.agent_ref, `agents[${i}].agent_ref`), model: asNonEmptyString(o.model, `agents[${i}].model`),
      character: optionalString(o.character, `agents[${i}].character`), goal: optionalString(o.goal, `agents[${i}].goal`),
      background: optionalString(o.background, `agents[${i}].background`),
    };
  });
  if (episode.participants.length < 1) throw new RecordProblem("agents", "needs at least one agent");
  episode.messages = (r.messages === undefined ? [] : asArray(r.messages, "messages")).map((m, i) => {
    const o = asObject(m, `messages[${i}]`);
    const agent = o.agent === null || o.agent === undefined ? null : asNumber(o.agent, `messages[${i}].agent`);
    if (agent !== null && !(Number.isInteger(agent) && agent >= 1 && agent <= episode.participants.length)) {
      throw new RecordProblem(`messages[${i}].agent`, `expected a seat from 1 to ${episode.participants.length}`);
    }
    return {turn: i, agent, action_type: asString(o.action_type ?? "speak", `messages[${i}].action_type`), content: asString(o.content ?? "", `messages[${i}].content`)};
  });
  episode.ratings = ratingsOf(episode.episode_id, r.ratings === undefined ? [] : asArray(r.ratings, "ratings"), episode.participants.length);
  episode.settings = {
    memory_mode: memory, harder: r.harder === true, ...(r.summary !== undefined ? {summary: asString(r.summary, "summary")} : {}),
    // How a workbench runner played the episode (run id, how it ended, a failed turn's answers): kept as given.
    ...(r.run !== undefined ? {run: asObject(r.run, "run")} : {}),
  };
  return episode;
}

/** A reader that rejects a chain position seen earlier in the same file (the import checks the store and other files too). */
export function withUniqueChainPositions(toEpisode: (doc: Json, line: number) => EpisodeRecord): (doc: Json, line: number) => ReadItem {
  const seen = new Map<string, number>();
  return (doc, line) => {
    const episode = toEpisode(doc, line);
    const key = `${chainKey(episode)}\u0000${episode.chain_index}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new RecordProblem("chain_index", `chain ${episode.chain_id} already has an episode at index ${episode.chain_index} (line ${earlier})`);
    seen.set(key, line);
    return {kind: "episode", line, episode};
  };
}

function readLifelong(path: string, ctx: ReadContext): Iterable<ReadItem> {
  return readJsonl(ctx.source, ctx.onProgress, withUniqueChainPositions((doc) => episodeFromLifelong(asObject(doc, "(record)"))));
}

/** Bump when a change to this reader changes the rows a file gives: a stored file read by an older version is read again on its next import (session.ts). */
export const LIFELONG_READER_VERSION = 1;

export const lifelongFormat: ImportFormat = {
  name: "lifelong",
  readerVersion: LIFELONG_READER_VERSION,
  description: "LIFELONG-SOTOPIA chained episodes with BEL / GOAL and BELEXT checkpoint labels (JSONL)",
  read: readLifelong,
};
