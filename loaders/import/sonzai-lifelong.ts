// Format `sonzai-lifelong`: the results JSONL of an independent, unofficial
// LIFELONG-SOTOPIA reimplementation (sonz-ai/sonzai-python), one episode a line.
// Its checklist is its own (SONZAI_CHECKPOINTS), kept under its own names.

import {basename} from "node:path";
import {checkpointDimension, dimensionOf, LOGGED_BEL_EXTENDED, scoreProblem, SONZAI_CHECKPOINTS} from "../../src/lib/dimensions.js";
import {RecordProblem} from "./errors.js";
import {readJsonl} from "./files.js";
import {BENCHMARK, withUniqueChainPositions} from "./lifelong.js";
import {emptyEpisode, type EpisodeRecord, type RatingRecord} from "./records.js";
import type {ImportFormat, ReadContext} from "./format.js";
import {asArray, asBoolean, asNonEmptyString, asObject, asString, asWholeNumber, INT32_MAX, optionalString, type JsonObject} from "./validate.js";

/** The log names no judge; its scores are attributed to this rater. */
export const SONZAI_RATER = "sonzai-judge";

/**
 * What the file name says of the run: `lifelong_sotopia_<backend>[-<memory>]_<time>.jsonl`.
 * The records themselves name neither the agent's model nor the memory mode.
 */
export function runOfFileName(path: string): {backend: string; memory: string} {
  const m = /^lifelong_sotopia_([a-z]+)(?:-([a-z-]+))?_\d{8}-\d{6}/.exec(basename(path));
  if (!m) return {backend: "unknown", memory: "unknown"};
  const memory = m[2] === "full-history" ? "full" : (m[2] ?? (m[1] === "sonzai" ? "sonzai" : "unknown"));
  return {backend: m[1]!, memory};
}

const KNOWN = new Set(SONZAI_CHECKPOINTS.checkpoints.map((c) => c.key));

export function episodeFromSonzai(r: JsonObject, run: {backend: string; memory: string; stem: string}): EpisodeRecord {
  const pair = asNonEmptyString(r.pair_id, "pair_id");
  // Stored as chain_index, one more.
  const index = asWholeNumber(r.episode_index, "episode_index", 0, INT32_MAX - 1);
  const episode = emptyEpisode(`${run.stem}#${pair}#${index}`, BENCHMARK);
  episode.chain_id = pair;
  episode.chain_index = index + 1; // the log counts from 0; chains here count from 1
  episode.scenario_id = optionalString(r.scenario_id, "scenario_id");
  const harder = asBoolean(r.is_memory_required, "is_memory_required");
  // The pair id names the agent first, then its partner (the run's char_a and char_b).
  const [agentName, partnerName] = pair.includes("-") ? pair.split("-", 2) : [pair, null];
  const model = `unnamed (${run.backend} backend)`;
  episode.participants = [
    {agent: 1, agent_ref: null, model, character: agentName ?? null, goal: null, background: null},
    {agent: 2, agent_ref: null, model: `${model}, partner`, character: partnerName ?? null, goal: null, background: null},
  ];
  episode.messages = asArray(r.transcript, "transcript").map((t, i) => {
    const o = asObject(t, `transcript[${i}]`);
    const role = asString(o.role, `transcript[${i}].role`);
    if (role !== "assistant" && role !== "user") throw new RecordProblem(`transcript[${i}].role`, `expected assistant (the agent) or user (its partner), got ${JSON.stringify(role)}`);
    return {turn: i, agent: role === "assistant" ? 1 : 2, action_type: "speak", content: asString(o.content, `transcript[${i}].content`)};
  });
  const score = asObject(r.score, "score");
  const base = {episode_id: episode.episode_id, agent: 1, rater: SONZAI_RATER, rater_kind: "llm" as const, run_id: "", rationale: null};
  const ratings: RatingRecord[] = [];
  for (const key of ["believability", "goal"]) {
    const problem = scoreProblem(dimensionOf(BENCHMARK, key)!, score[key]);
    if (problem) throw new RecordProblem(`score.${key}`, problem);
    ratings.push({...base, dimension: key, value: score[key] as number});
  }
  const failed = asArray(score.checkpoints_failed, "score.checkpoints_failed").map((c, i) => asString(c, `score.checkpoints_failed[${i}]`));
  for (const [i, name] of failed.entries()) {
    if (!KNOWN.has(name)) throw new RecordProblem(`score.checkpoints_failed[${i}]`, `unknown checkpoint ${JSON.stringify(name)} (this log's checklist: ${[...KNOWN].join(", ")})`);
  }
  // The log lists failures; every other checkpoint of its checklist passed.
  for (const c of SONZAI_CHECKPOINTS.checkpoints) {
    ratings.push({...base, dimension: checkpointDimension(SONZAI_CHECKPOINTS, c.key), value: failed.includes(c.key) ? 0 : 1});
  }
  const logged = scoreProblem(LOGGED_BEL_EXTENDED, score.bel_extended);
  if (logged) throw new RecordProblem("score.bel_extended", logged);
  ratings.push({...base, dimension: LOGGED_BEL_EXTENDED.key, value: score.bel_extended as number, rationale: optionalString(score.judge_rationale, "score.judge_rationale")});
  episode.ratings = ratings;
  episode.settings = {
    memory_mode: run.memory, harder, checkpoint_set: SONZAI_CHECKPOINTS.name, backend: run.backend,
    relationship_type: optionalString(r.relationship_type, "relationship_type"),
  };
  return episode;
}

function readSonzai(path: string, ctx: ReadContext) {
  const run = {...runOfFileName(path), stem: basename(path, ".jsonl")};
  return readJsonl(ctx.source, ctx.onProgress, withUniqueChainPositions((doc) => episodeFromSonzai(asObject(doc, "(record)"), run)));
}

/** Bump when a change to this reader changes the rows a file gives: a stored file read by an older version is read again on its next import (session.ts). */
export const SONZAI_LIFELONG_READER_VERSION = 1;

export const sonzaiLifelongFormat: ImportFormat = {
  name: "sonzai-lifelong",
  readerVersion: SONZAI_LIFELONG_READER_VERSION,
  description: "results JSONL of the unofficial sonzai-python LIFELONG-SOTOPIA reimplementation (its own checklist)",
  read: readSonzai,
};
