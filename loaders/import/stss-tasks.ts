// Format `stss-tasks`: STSS task definitions in the benchmark's own shape (the
// JSON array of environment/data/task_0905/tasks.json and tasks_dlc.json), or
// the same objects one per line (*.jsonl). Each task becomes an episode of
// benchmark `stss-task` (docs/formats.md § STSS), which conversations and
// simulation runs refer to by task id.

import {categoryOf, TASK_TYPE_MAP} from "../../src/lib/stss.js";
import {RecordProblem} from "./errors.js";
import {readJsonDocument, readJsonl} from "./files.js";
import {arrayElementLines} from "./json-text.js";
import type {SourceFile} from "./source-file.js";
import {emptyEpisode, type EpisodeRecord, type ReadItem} from "./records.js";
import type {ImportFormat, ReadContext} from "./format.js";
import {verifyStss} from "./stss-verify.js";
import {asArray, asNonEmptyString, asObject, asWholeNumber, optionalString, type Json, type JsonObject} from "./validate.js";

/** The episode id of a task definition. */
export const taskEpisodeId = (taskId: string): string => `stss-task:${taskId}`;

const NOT_APPLICABLE = "N/A";
const orNull = (s: string | null) => (s === null || s.trim() === NOT_APPLICABLE ? null : s);

/** NULL for an empty list: the store's list columns hold no empty lists (see 003_stss.sql). */
const listOrNull = (xs: string[]) => (xs.length ? xs : null);

function names(v: Json | undefined, field: string): string[] {
  if (v === undefined || v === null) return [];
  return asArray(v, field).map((x, i) => asNonEmptyString(x, `${field}[${i}]`));
}

function wholeNumber(v: Json | undefined, field: string, min: number): number | null {
  return v === undefined || v === null ? null : asWholeNumber(v, field, min);
}

export function episodeFromTask(r: JsonObject): EpisodeRecord {
  const sourceType = asNonEmptyString(r.task_type, "task_type");
  const category = categoryOf(sourceType);
  if (!category) throw new RecordProblem("task_type", `unknown task type ${JSON.stringify(sourceType)}; expected one of ${TASK_TYPE_MAP.map((m) => m.sourceType).join(", ")}`);
  const envName = optionalString(r.env_name, "env_name");
  const taskId = optionalString(r.task_id, "task_id") ?? envName;
  if (taskId === null || !taskId.trim()) throw new RecordProblem("env_name", "is missing: a task is identified by task_id, else by env_name");
  const performer = asNonEmptyString(r.performer, "performer");
  const task = asObject(r.task, "task");
  const goals = asArray(task.goal, "task.goal").map((g, i) => {
    const f = `task.goal[${i}]`;
    const o = asObject(g, f);
    return {
      ord: i,
      keyword: asNonEmptyString(o.keyword, `${f}.keyword`),
      alter_kwd: listOrNull(names(o.alter_kwd, `${f}.alter_kwd`)),
      start_time: orNull(optionalString(o.start_time, `${f}.start_time`)),
      duration_in_minutes: wholeNumber(o.duration_in_minutes, `${f}.duration_in_minutes`, 0),
      location: orNull(optionalString(o.location, `${f}.location`)),
      required_characters: listOrNull(names(o.required_character, `${f}.required_character`)),
    };
  });
  if (!goals.length) throw new RecordProblem("task.goal", "needs at least one goal");
  const keywords = goals.map((g) => g.keyword);
  const repeated = keywords.find((k, i) => keywords.indexOf(k) !== i);
  if (repeated) throw new RecordProblem("task.goal", `keyword ${JSON.stringify(repeated)} appears twice; sub-tasks are told apart by keyword`);
  const characters = names(r.all_chars, "all_chars");
  if (characters.length && !characters.includes(performer)) throw new RecordProblem("all_chars", `does not include the performer ${JSON.stringify(performer)}`);
  const nCharacters = wholeNumber(r.n_characters, "n_characters", 1);
  if (nCharacters !== null && characters.length && nCharacters !== characters.length) {
    throw new RecordProblem("n_characters", `says ${nCharacters} but all_chars lists ${characters.length}`);
  }

  const episode = emptyEpisode(taskEpisodeId(taskId), "stss-task");
  episode.scenario_id = taskId;
  episode.scenario = optionalString(r.goal, "goal");
  episode.codename = optionalString(r.Note, "Note");
  episode.task_type = category;
  episode.synthetic = r.synthetic === true;
  // No participants: a definition is played by nobody; its performer lives in stss_tasks.
  episode.tables = {
    stss_tasks: [{
      task_id: taskId, source_type: sourceType, category, goal: episode.scenario, description: optionalString(r.Description, "Description"), performer,
      targets: listOrNull(names(task.target, "task.target")), target_num: wholeNumber(task.target_num, "task.target_num", 0), characters: listOrNull(characters), env_name: envName,
    }],
    stss_task_goals: goals,
  };
  episode.settings = {source_type: sourceType, ...(r.FPG !== undefined ? {first_person_goal: optionalString(r.FPG, "FPG")} : {})};
  return episode;
}

function* readTaskArray(source: SourceFile): Generator<ReadItem> {
  const read = readJsonDocument(source);
  if ("kind" in read) {
    yield read;
    return;
  }
  const {text, doc} = read;
  if (!Array.isArray(doc)) {
    yield {kind: "reject", line: 1, field: null, problem: `expected a JSON array of tasks (as in tasks.json), got ${doc === null ? "null" : typeof doc}`, raw: ""};
    return;
  }
  const lines = arrayElementLines(text);
  for (const [i, item] of doc.entries()) {
    const line = lines[i] ?? 1;
    try {
      yield {kind: "episode", line, episode: episodeFromTask(asObject(item, "(record)"))};
    } catch (e) {
      if (!(e instanceof RecordProblem)) throw e;
      const field = e.field === null || e.field === "(record)" ? `[${i}]` : `[${i}].${e.field}`;
      yield {kind: "reject", line, field, problem: e.problem, raw: JSON.stringify(item)};
    }
  }
}

function readTasks(path: string, ctx: ReadContext): Iterable<ReadItem> {
  if (path.endsWith(".jsonl")) return readJsonl(ctx.source, ctx.onProgress, (doc, line) => ({kind: "episode", line, episode: episodeFromTask(asObject(doc, "(record)"))}));
  return readTaskArray(ctx.source);
}

/** Bump when a change to this reader changes the rows a file gives: a stored file read by an older version is read again on its next import (session.ts). */
export const STSS_TASKS_READER_VERSION = 1;

export const stssTasksFormat: ImportFormat = {
  name: "stss-tasks",
  readerVersion: STSS_TASKS_READER_VERSION,
  description: "STSS task definitions in the benchmark's own tasks.json shape (a JSON array; or one task a line in *.jsonl)",
  read: readTasks,
  verify: verifyStss,
};
