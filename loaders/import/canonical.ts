// Format `canonical`: the workbench's own JSONL, one episode a line, the shape
// docs/schema/episode.schema.json describes. Runners write it; any benchmark can use it.

import {ALL_DIMENSIONS, scoreProblem} from "../../src/lib/dimensions.js";
import {RecordProblem} from "./errors.js";
import {readJsonl} from "./files.js";
import type {EpisodeRecord, RaterKind, ReadItem} from "./records.js";
import type {ImportFormat, ReadContext} from "./format.js";
import {asArray, asNonEmptyString, asObject, asString, asWholeNumber, INT32_MIN, optionalString, type JsonObject} from "./validate.js";

const RATER_KINDS: readonly RaterKind[] = ["llm", "human", "rule"];
const ACTION_TYPES = ["speak", "non-verbal", "action", "none", "leave", "environment", "other"];

function optionalInteger(v: unknown, field: string): number | null {
  return v === undefined || v === null ? null : asWholeNumber(v, field, INT32_MIN);
}

function seatNumber(v: unknown, field: string, seats: number): number {
  const n = optionalInteger(v, field);
  if (n === null || n < 1 || n > seats) throw new RecordProblem(field, `expected a seat from 1 to ${seats}, got ${JSON.stringify(v)}`);
  return n;
}

export function episodeFromCanonical(r: JsonObject): EpisodeRecord {
  const episode_id = asNonEmptyString(r.episode_id, "episode_id");
  const benchmark = asNonEmptyString(r.benchmark, "benchmark");
  const participants = asArray(r.participants, "participants").map((p, i) => {
    const f = `participants[${i}]`;
    const o = asObject(p, f);
    return {
      agent: i + 1, agent_ref: optionalString(o.agent_ref, `${f}.agent_ref`), model: asNonEmptyString(o.model, `${f}.model`),
      character: optionalString(o.character, `${f}.character`), goal: optionalString(o.goal, `${f}.goal`),
      background: optionalString(o.background, `${f}.background`),
    };
  });
  if (!participants.length) throw new RecordProblem("participants", "needs at least one participant");
  const messages = (r.messages === undefined ? [] : asArray(r.messages, "messages")).map((m, i) => {
    const f = `messages[${i}]`;
    const o = asObject(m, f);
    const action_type = asString(o.action_type ?? "speak", `${f}.action_type`);
    if (!ACTION_TYPES.includes(action_type)) throw new RecordProblem(`${f}.action_type`, `expected one of ${ACTION_TYPES.join(", ")}`);
    return {
      turn: optionalInteger(o.turn, `${f}.turn`) ?? i,
      agent: o.agent === null || o.agent === undefined ? null : seatNumber(o.agent, `${f}.agent`, participants.length),
      action_type, content: asString(o.content ?? "", `${f}.content`),
    };
  });
  const dims = new Map(ALL_DIMENSIONS.filter((d) => d.benchmark === benchmark).map((d) => [d.key, d]));
  const ratings = (r.ratings === undefined ? [] : asArray(r.ratings, "ratings")).map((x, i) => {
    const f = `ratings[${i}]`;
    const o = asObject(x, f);
    const dimension = asNonEmptyString(o.dimension, `${f}.dimension`);
    const dim = dims.get(dimension);
    if (!dim) throw new RecordProblem(`${f}.dimension`, `unknown dimension for ${benchmark} (expected one of ${[...dims.keys()].join(", ") || "none defined yet"})`);
    const problem = scoreProblem(dim, o.value);
    if (problem) throw new RecordProblem(`${f}.value`, problem);
    const rater_kind = asString(o.rater_kind, `${f}.rater_kind`) as RaterKind;
    if (!RATER_KINDS.includes(rater_kind)) throw new RecordProblem(`${f}.rater_kind`, `expected one of ${RATER_KINDS.join(", ")}`);
    return {
      episode_id, agent: seatNumber(o.agent, `${f}.agent`, participants.length), dimension,
      rater: asNonEmptyString(o.rater, `${f}.rater`), rater_kind, value: o.value as number,
      rationale: optionalString(o.rationale, `${f}.rationale`), run_id: optionalString(o.run_id, `${f}.run_id`) ?? "",
    };
  });
  const seen = new Set<string>();
  for (const [i, x] of ratings.entries()) {
    const key = `${x.agent}/${x.dimension}/${x.rater}/${x.run_id}`;
    if (seen.has(key)) throw new RecordProblem(`ratings[${i}]`, `${x.rater} rates ${x.dimension} of agent ${x.agent} twice`);
    seen.add(key);
  }
  const settings = r.settings === undefined || r.settings === null ? null : asObject(r.settings, "settings");
  return {
    episode_id, benchmark,
    scenario_id: optionalString(r.scenario_id, "scenario_id"), scenario: optionalString(r.scenario, "scenario"),
    codename: optionalString(r.codename, "codename"), task_type: optionalString(r.task_type, "task_type"),
    chain_id: optionalString(r.chain_id, "chain_id"), chain_index: optionalInteger(r.chain_index, "chain_index"),
    split: optionalString(r.split, "split"), tag: optionalString(r.tag, "tag"), synthetic: r.synthetic === true,
    settings, participants, messages, ratings,
  };
}

function readCanonical(path: string, ctx: ReadContext): Iterable<ReadItem> {
  return readJsonl(ctx.source, ctx.onProgress, (doc, line) => ({kind: "episode", line, episode: episodeFromCanonical(asObject(doc, "(record)"))}));
}

/** Bump when a change to this reader changes the rows a file gives: a stored file read by an older version is read again on its next import (session.ts). */
export const CANONICAL_READER_VERSION = 1;

export const canonicalFormat: ImportFormat = {
  name: "canonical",
  readerVersion: CANONICAL_READER_VERSION,
  description: "the workbench's own JSONL (docs/schema/episode.schema.json), any benchmark",
  read: readCanonical,
};
