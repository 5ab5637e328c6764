// Format `stss-action`: STSS action-level results as JSONL, one simulation run
// a line: the observed outcome the task type's scoring rule needs (Appendix
// A.1), the conversations initiated and demanded, and, when the log has one,
// its own score, kept as a `task_score` rating to compare with the rule's
// (docs/formats.md § STSS). Whether the outcome fits the task's type is
// checked against the task definition before the import commits (stss-verify.ts).

import {APPOINTMENT_OUTCOMES} from "../../src/lib/stss-action.js";
import {RecordProblem} from "./errors.js";
import {readJsonl} from "./files.js";
import {emptyEpisode, type EpisodeRecord} from "./records.js";
import type {ImportFormat, ReadContext} from "./format.js";
import {architectureOf, requireTask} from "./stss.js";
import {verifyStss} from "./stss-verify.js";
import {asArray, asBoolean, asNonEmptyString, asNumber, asObject, INT32_MAX, optionalString, type Json, type JsonObject} from "./validate.js";

/** The ratings dimension of a score a log carries. */
export const LOGGED_TASK_SCORE = "task_score";

function count(v: Json | undefined, field: string, {min = 0} = {}): number {
  const n = asNumber(v, field);
  if (!Number.isInteger(n) || n > INT32_MAX) throw new RecordProblem(field, `expected a whole number up to ${INT32_MAX}, got ${n}`);
  if (n < min) throw new RecordProblem(field, n < 0 ? `is negative (${n}); a count cannot be` : `must be at least ${min}, got ${n}`);
  return n;
}

const optionalCount = (v: Json | undefined, field: string) => (v === undefined || v === null ? null : count(v, field));

export function episodeFromRun(r: JsonObject, line: number, ctx: ReadContext): EpisodeRecord {
  const taskId = asNonEmptyString(r.task_id, "task_id");
  requireTask(ctx, taskId);
  const model = asNonEmptyString(r.model, "model");
  const architecture = architectureOf(r.architecture, "architecture");
  const runLabel = optionalString(r.run, "run");
  const background = count(r.background_characters, "background_characters", {min: 1});

  // Participants: a count, or the names of those who attended at the right place and time.
  let participants: number | null = null;
  let participantNames: string[] | null = null;
  if (Array.isArray(r.participants)) {
    participantNames = asArray(r.participants, "participants").map((p, i) => asNonEmptyString(p, `participants[${i}]`));
    const twice = participantNames.find((p, i) => participantNames!.indexOf(p) !== i);
    if (twice) throw new RecordProblem("participants", `${JSON.stringify(twice)} is listed twice`);
    participants = participantNames.length;
  } else if (r.participants !== undefined && r.participants !== null) {
    participants = count(r.participants, "participants");
  }
  if (participants !== null && participants > background) {
    throw new RecordProblem("participants", `${participants} participants, but only ${background} background characters could attend`);
  }
  const appointment = optionalString(r.appointment, "appointment");
  if (appointment !== null && !(APPOINTMENT_OUTCOMES as readonly string[]).includes(appointment)) {
    throw new RecordProblem("appointment", `expected ${APPOINTMENT_OUTCOMES.join(", ")}, got ${JSON.stringify(appointment)}`);
  }
  const subtasks = r.subtasks_done === undefined || r.subtasks_done === null ? null
    : asArray(r.subtasks_done, "subtasks_done").map((s, i) => asNonEmptyString(s, `subtasks_done[${i}]`));
  const initiated = optionalCount(r.conversations_initiated, "conversations_initiated");
  const demanded = optionalCount(r.conversations_demanded, "conversations_demanded");
  // The ratio needs both counts; one alone, or conversations initiated against none demanded, cannot enter it.
  if ((initiated === null) !== (demanded === null)) {
    const [missing, given] = initiated === null ? ["conversations_initiated", "conversations_demanded"] : ["conversations_demanded", "conversations_initiated"];
    throw new RecordProblem(missing, `is missing while ${given} is given; the conversation ratio needs both (or neither)`);
  }
  if (demanded === 0 && initiated! > 0) {
    throw new RecordProblem("conversations_demanded", `is 0 while ${initiated} conversation(s) were initiated: the ratio initiated / demanded is undefined; give the number the task demands`);
  }
  let logged: number | null = null;
  if (r.score !== undefined && r.score !== null) {
    logged = asNumber(r.score, "score");
    if (logged < 0 || logged > 1) throw new RecordProblem("score", `${logged} is outside [0, 1]`);
  }

  const episodeId = optionalString(r.episode_id, "episode_id") ?? `stss-action|${model}|${architecture}|${taskId}${runLabel ? `|${runLabel}` : ""}`;
  const episode = emptyEpisode(episodeId, "stss");
  episode.scenario_id = taskId;
  episode.synthetic = r.synthetic === true;
  episode.participants = [{agent: 1, agent_ref: null, model, character: optionalString(r.performer, "performer"), goal: null, background: null}];
  if (logged !== null) {
    episode.ratings.push({episode_id: episodeId, agent: 1, dimension: LOGGED_TASK_SCORE, rater: optionalString(r.score_rater, "score_rater") ?? "log",
      rater_kind: "rule", value: logged, rationale: null, run_id: ""});
  }
  episode.tables = {
    stss_runs: [{
      task_id: taskId, architecture, run_label: runLabel, background_characters: background, participants, participant_names: participantNames?.length ? participantNames : null,
      performer_attended: r.performer_attended === undefined || r.performer_attended === null ? null : asBoolean(r.performer_attended, "performer_attended"),
      appointment, subtasks_reported: subtasks !== null, subtasks_done: subtasks?.length ? subtasks : null, conversations_initiated: initiated, conversations_demanded: demanded, line,
    }],
  };
  episode.settings = {architecture, stss_record: "simulation"};
  return episode;
}

function readRuns(path: string, ctx: ReadContext) {
  return readJsonl(ctx.source, ctx.onProgress, (doc, line) => ({kind: "episode", line, episode: episodeFromRun(asObject(doc, "(record)"), line, ctx)}));
}

/** Bump when a change to this reader changes the rows a file gives: a stored file read by an older version is read again on its next import (session.ts). */
export const STSS_ACTION_READER_VERSION = 1;

export const stssActionFormat: ImportFormat = {
  name: "stss-action",
  readerVersion: STSS_ACTION_READER_VERSION,
  description: "STSS action-level results: one simulation run a line, with the observed outcome the scoring rule needs (JSONL)",
  asksAboutStoredEpisodes: true,
  read: readRuns,
  verify: verifyStss,
};
