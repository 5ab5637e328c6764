// Format `stss`: STSS language-level results as JSONL, one conversation run
// (a model and architecture on one conversation scenario) a line, with the
// transcript, the listener's summary and the goal-condition verdicts at each
// level (docs/formats.md § STSS). Verdicts become `ratings` rows, so an LLM
// judge can add its own later for the same episode.

import {ARCHITECTURES, conditionDimension, LEVELS, type Level} from "../../src/lib/stss.js";
import {RecordProblem} from "./errors.js";
import {readJsonl} from "./files.js";
import {emptyEpisode, type EpisodeRecord, type RaterKind, type RatingRecord} from "./records.js";
import type {ImportFormat, ReadContext} from "./format.js";
import {taskEpisodeId} from "./stss-tasks.js";
import {verifyStss} from "./stss-verify.js";
import {asArray, asNonEmptyString, asObject, asString, describe, optionalString, type Json, type JsonObject} from "./validate.js";

const RATER_KINDS: readonly RaterKind[] = ["llm", "human", "rule"];
/** Condition names are ratings dimensions (`<level>:<name>`): kept to a plain identifier. */
const CONDITION_NAME = /^[a-z][a-z0-9_]*$/;

export function architectureOf(v: Json | undefined, field: string): string {
  const a = asNonEmptyString(v, field).replace(/\s+/g, "");
  if (!(ARCHITECTURES as readonly string[]).includes(a)) throw new RecordProblem(field, `expected ${ARCHITECTURES.join(" or ")}, got ${JSON.stringify(v)}`);
  return a;
}

/** A task must be defined (stss-tasks) before, or in the same import as, results that refer to it. */
export function requireTask(ctx: ReadContext, taskId: string): void {
  if (!ctx.hasEpisode(taskEpisodeId(taskId))) {
    throw new RecordProblem("task_id", `task ${JSON.stringify(taskId)} has no task definition in the store; import its tasks file first (sociometer import stss-tasks tasks.json)`);
  }
}

/** yes / no (or true / false) into 1 / 0; anything else is an error, never a guess. */
function verdictValue(v: Json | undefined, field: string): number {
  if (v === "yes" || v === true) return 1;
  if (v === "no" || v === false) return 0;
  throw new RecordProblem(field, `expected "yes" or "no", got ${describe(v)}`);
}

function levelRatings(episodeId: string, level: Level, list: Json, defaults: {rater: string | null; rater_kind: RaterKind}): RatingRecord[] {
  const seen = new Set<string>();
  const items = asArray(list, `conditions.${level}`);
  // An empty list would read as "judged, nothing to hold": leave the level out when it was not judged.
  if (!items.length) throw new RecordProblem(`conditions.${level}`, "is an empty list; give at least one condition, or leave the level out when it was not judged");
  return items.map((c, i) => {
    const f = `conditions.${level}[${i}]`;
    const o = asObject(c, f);
    const name = asNonEmptyString(o.name, `${f}.name`);
    if (!CONDITION_NAME.test(name)) throw new RecordProblem(`${f}.name`, `${JSON.stringify(name)} is not a condition name (lower-case letters, digits and _ , starting with a letter)`);
    const rater = optionalString(o.rater, `${f}.rater`) ?? defaults.rater;
    if (!rater?.trim()) throw new RecordProblem(`${f}.rater`, "is missing (give rater on the condition or on the record)");
    const kind = (optionalString(o.rater_kind, `${f}.rater_kind`) ?? defaults.rater_kind) as RaterKind;
    if (!RATER_KINDS.includes(kind)) throw new RecordProblem(`${f}.rater_kind`, `expected one of ${RATER_KINDS.join(", ")}, got ${JSON.stringify(kind)}`);
    const key = `${rater}\u0000${name}`;
    if (seen.has(key)) throw new RecordProblem(`${f}.name`, `${rater} already judged ${name} at the ${level} level in this record`);
    seen.add(key);
    return {episode_id: episodeId, agent: 1, dimension: conditionDimension(level, name), rater, rater_kind: kind,
      value: verdictValue(o.verdict, `${f}.verdict`), rationale: optionalString(o.rationale, `${f}.rationale`), run_id: ""};
  });
}

/** The conditions a conversation is to be judged on, listed without verdicts (a runner's log): names, each with an optional label. */
function goalConditionsOf(v: Json | undefined): {name: string; label: string | null}[] | null {
  if (v === undefined || v === null) return null;
  const seen = new Set<string>();
  return asArray(v, "goal_conditions").map((c, i) => {
    const f = `goal_conditions[${i}]`;
    const o = asObject(c, f);
    const name = asNonEmptyString(o.name, `${f}.name`);
    if (!CONDITION_NAME.test(name)) throw new RecordProblem(`${f}.name`, `${JSON.stringify(name)} is not a condition name (lower-case letters, digits and _ , starting with a letter)`);
    if (seen.has(name)) throw new RecordProblem(`${f}.name`, `${name} is listed twice`);
    seen.add(name);
    return {name, label: optionalString(o.label, `${f}.label`)};
  });
}

export function episodeFromConversation(r: JsonObject, ctx: ReadContext): EpisodeRecord {
  const taskId = asNonEmptyString(r.task_id, "task_id");
  requireTask(ctx, taskId);
  const conversationId = asNonEmptyString(r.conversation_id, "conversation_id");
  const model = asNonEmptyString(r.model, "model");
  const architecture = architectureOf(r.architecture, "architecture");
  const partner = asNonEmptyString(r.partner, "partner");
  const performer = optionalString(r.performer, "performer");
  const episodeId = optionalString(r.episode_id, "episode_id") ?? `stss|${model}|${architecture}|${taskId}|${conversationId}`;
  const episode = emptyEpisode(episodeId, "stss");
  episode.scenario_id = taskId;
  episode.synthetic = r.synthetic === true;
  episode.participants = [
    {agent: 1, agent_ref: null, model, character: performer, goal: null, background: null},
    {agent: 2, agent_ref: null, model: optionalString(r.partner_model, "partner_model") ?? "unspecified", character: partner, goal: null, background: null},
  ];
  // Seat 1 speaks as the performer, seat 2 as the partner; anyone else in a transcript is an error.
  const seatOf = (speaker: string, field: string): number => {
    if (speaker === partner) return 2;
    if (performer === null || speaker === performer) return 1;
    throw new RecordProblem(field, `${JSON.stringify(speaker)} is neither the performer ${JSON.stringify(performer)} nor the partner ${JSON.stringify(partner)}`);
  };
  const transcript = r.transcript === undefined ? [] : asArray(r.transcript, "transcript");
  episode.messages = transcript.map((t, i) => {
    const o = asObject(t, `transcript[${i}]`);
    const speaker = asNonEmptyString(o.speaker, `transcript[${i}].speaker`);
    return {turn: i, agent: seatOf(speaker, `transcript[${i}].speaker`), action_type: "speak", content: asString(o.text, `transcript[${i}].text`)};
  });
  const summary = optionalString(r.summary, "summary");
  // The listener's summary follows the conversation as seat 2's `summary` message.
  if (summary !== null) episode.messages.push({turn: transcript.length, agent: 2, action_type: "summary", content: summary});

  const defaults = {rater: optionalString(r.rater, "rater"), rater_kind: (optionalString(r.rater_kind, "rater_kind") ?? "llm") as RaterKind};
  if (r.conditions !== undefined && r.conditions !== null) {
    const conditions = asObject(r.conditions, "conditions");
    for (const key of Object.keys(conditions)) {
      if (!(LEVELS as readonly string[]).includes(key)) throw new RecordProblem(`conditions.${key}`, `unknown level; expected ${LEVELS.join(" or ")}`);
    }
    for (const level of LEVELS) {
      if (conditions[level] !== undefined) for (const r of levelRatings(episodeId, level, conditions[level]!, defaults)) episode.ratings.push(r);
    }
  }
  episode.tables = {stss_conversations: [{task_id: taskId, conversation_id: conversationId, architecture, performer, partner}]};
  episode.tag = optionalString(r.tag, "tag");
  // A runner's own account of the conversation (how it ended, the plan, a failure) is kept as written, under the importer's keys.
  const settings = r.settings === undefined || r.settings === null ? {} : asObject(r.settings, "settings");
  const goalConditions = goalConditionsOf(r.goal_conditions);
  episode.settings = {...settings, ...(goalConditions ? {goal_conditions: goalConditions} : {}), architecture, stss_record: "conversation"};
  return episode;
}

function readConversations(path: string, ctx: ReadContext) {
  return readJsonl(ctx.source, ctx.onProgress, (doc, line) => ({kind: "episode", line, episode: episodeFromConversation(asObject(doc, "(record)"), ctx)}));
}

/** Bump when a change to this reader changes the rows a file gives: a stored file read by an older version is read again on its next import (session.ts). */
export const STSS_READER_VERSION = 1;

export const stssFormat: ImportFormat = {
  name: "stss",
  readerVersion: STSS_READER_VERSION,
  description: "STSS language-level results: one conversation run a line, transcript, summary and yes/no goal conditions per level (JSONL)",
  asksAboutStoredEpisodes: true,
  read: readConversations,
  verify: verifyStss,
};
