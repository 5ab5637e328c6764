// Format `informativebench-schedules`: the inputs of InformativeBench's Schedule
// questions as JSONL, one question a line: each person's day as named
// activities with start and end times (docs/formats.md). The verifier computes
// each question's gold answer from them; a gold answer stated with the
// schedule is kept and compared. `sociometer verify-schedule` reads the same
// records.

import {goldAgrees, knownDataset} from "../../src/lib/informativebench.js";
import {parseClock, parseSpans, spanFromClocks, type Interval} from "../../src/lib/schedule-time.js";
import {DEFAULT_VERIFIER, verifySchedule, WHOLE_DAY, type Activity, type Schedule, type ScheduleAnswer, type ScheduleLevel, type VerifierOptions} from "../../src/lib/schedule.js";
import {RecordProblem} from "./errors.js";
import {readJsonl} from "./files.js";
import {emptyEpisode, type EpisodeRecord} from "./records.js";
import type {ImportFormat, ReadContext} from "./format.js";
import {asArray, asBoolean, asNonEmptyString, asObject, asString, optionalString, type Json, type JsonObject} from "./validate.js";

const LEVELS: readonly ScheduleLevel[] = ["easy", "medium", "hard"];

export interface ScheduleRecord {
  dataset: string;
  question_id: string;
  level: ScheduleLevel;
  schedule: Schedule;
  /** A gold answer stated with the schedule, as written. */
  gold: string[] | null;
  synthetic: boolean;
}

/** One span written as one text, "9:00-10:30". */
function spanOfText(text: string, field: string): Interval {
  let spans: Interval[];
  try {
    spans = parseSpans(text);
  } catch (e) {
    throw new RecordProblem(field, (e as Error).message);
  }
  if (spans.length !== 1) throw new RecordProblem(field, `expected one span such as 9:00-10:30, got ${JSON.stringify(text)}`);
  return spans[0]!;
}

/** One span from a record: `{start, end}` clock texts, or `{time: "9:00-10:30"}`. */
function spanOf(o: JsonObject, field: string): Interval {
  if (o.time !== undefined) return spanOfText(asNonEmptyString(o.time, `${field}.time`), `${field}.time`);
  const start = asNonEmptyString(o.start, `${field}.start`);
  const end = asNonEmptyString(o.end, `${field}.end`);
  for (const [key, text] of [["start", start], ["end", end]] as const) {
    const clock = parseClock(text);
    if (!clock.ok) throw new RecordProblem(`${field}.${key}`, clock.problem);
  }
  const r = spanFromClocks(start, end);
  if (!r.ok) throw new RecordProblem(`${field}.end`, r.problem);
  return r.span;
}

/** A gold answer as a list of strings: a string is one answer, an array several. */
export function goldList(v: Json | undefined, field: string): string[] {
  if (typeof v === "string") return [v];
  if (typeof v === "number") return [String(v)];
  const list = asArray(v, field);
  if (!list.length) throw new RecordProblem(field, "needs at least one answer (write \"none\" for no activity or no free span)");
  return list.map((g, i) => (typeof g === "number" ? String(g) : asString(g, `${field}[${i}]`)));
}

/** The two people an easy question asks about, by name, as indices; null when not given. */
function pairOf(v: Json | undefined, names: readonly string[]): [number, number] | null {
  if (v === undefined || v === null) return null;
  const list = asArray(v, "pair");
  if (list.length !== 2) throw new RecordProblem("pair", `expected two people's names, got ${list.length}`);
  const indices = list.map((n, i) => {
    const name = asNonEmptyString(n, `pair[${i}]`);
    const at = names.indexOf(name);
    if (at < 0) throw new RecordProblem(`pair[${i}]`, `${JSON.stringify(name)} is not one of the people (${names.join(", ")})`);
    return at;
  }) as [number, number];
  if (indices[0] === indices[1]) throw new RecordProblem("pair[1]", "the pair names the same person twice");
  return indices;
}

/** Validates one schedule record. */
export function scheduleFromJson(r: JsonObject): ScheduleRecord {
  const datasetName = asNonEmptyString(r.dataset, "dataset");
  const question_id = asNonEmptyString(r.question_id, "question_id");
  const known = knownDataset(datasetName);
  const declared = optionalString(r.level, "level");
  if (declared !== null && !LEVELS.includes(declared as ScheduleLevel)) throw new RecordProblem("level", `expected easy, medium or hard, got ${JSON.stringify(declared)}`);
  if (known && !known.level) throw new RecordProblem("dataset", `${known.name} is not a Schedule dataset; schedules belong to ScheduleEasy, ScheduleMedium, ScheduleHard or a dataset with a level`);
  if (known?.level && declared !== null && declared !== known.level) throw new RecordProblem("level", `${known.name} asks the ${known.level} question, but the record says ${declared}`);
  const level = (known?.level ?? declared) as ScheduleLevel | null;
  if (!level) throw new RecordProblem("level", `dataset ${JSON.stringify(datasetName)} is not one of ScheduleEasy, ScheduleMedium, ScheduleHard: say which question it asks with "level": "easy", "medium" or "hard"`);

  let day: Interval = WHOLE_DAY;
  if (r.day !== undefined && r.day !== null) day = typeof r.day === "string" ? spanOfText(r.day, "day") : spanOf(asObject(r.day, "day"), "day");

  const people = asArray(r.people, "people").map((p, i) => {
    const o = asObject(p, `people[${i}]`);
    const name = asNonEmptyString(o.name, `people[${i}].name`);
    const activities: Activity[] = (o.activities === undefined ? [] : asArray(o.activities, `people[${i}].activities`)).map((a, j) => {
      const field = `people[${i}].activities[${j}]`;
      const ao = asObject(a, field);
      const activity: Activity = {name: asNonEmptyString(ao.name, `${field}.name`), ...spanOf(ao, field)};
      if (ao.fixed !== undefined && ao.fixed !== null) activity.fixed = asBoolean(ao.fixed, `${field}.fixed`);
      return activity;
    });
    return {name, activities};
  });
  if (!people.length) throw new RecordProblem("people", "needs at least one person");
  const pair = pairOf(r.pair, people.map((p) => p.name));
  if (pair && level !== "easy") throw new RecordProblem("pair", `only the easy question is about a pair of people; ${level} is about everyone`);
  if (level === "easy" && !pair && people.length !== 2) {
    throw new RecordProblem("people", `the easy question is about two people's schedules; this one lists ${people.length}: name the two with "pair": ["A", "B"]`);
  }
  const gold = r.gold === undefined || r.gold === null ? null : goldList(r.gold, "gold");
  gold?.forEach((g, i) => {
    if (g.trim() === "") throw new RecordProblem(gold.length === 1 && !Array.isArray(r.gold) ? "gold" : `gold[${i}]`, `empty gold answer: write ${level === "hard" ? "\"none\" for no common free span" : level === "medium" ? "\"none\" for no activity" : "the number"}`);
  });
  return {dataset: known?.name ?? datasetName, question_id, level, schedule: {day, people, pair}, gold, synthetic: r.synthetic === true};
}

/** The verifier's answer for a record, and whether a stated gold agrees (null without one). Throws a RecordProblem on a gold that does not parse. */
export function verifyRecord(s: ScheduleRecord, o: VerifierOptions = DEFAULT_VERIFIER): {answer: ScheduleAnswer; agrees: boolean | null} {
  const answer = verifySchedule(s.level, s.schedule, o);
  if (s.gold === null) return {answer, agrees: null};
  try {
    return {answer, agrees: goldAgrees(answer, s.gold, s.schedule)};
  } catch (e) {
    throw new RecordProblem("gold", (e as Error).message);
  }
}

export function episodeFromSchedule(r: JsonObject): EpisodeRecord {
  const s = scheduleFromJson(r);
  const {answer, agrees} = verifyRecord(s);
  const episode = emptyEpisode(`schedule|${s.dataset}|${s.question_id}`, "informativebench-schedule");
  episode.scenario_id = s.question_id;
  episode.task_type = s.dataset;
  episode.synthetic = s.synthetic;
  episode.settings = {level: s.level};
  episode.participants = s.schedule.people.map((p, i) => ({agent: i + 1, agent_ref: null, model: "dataset", character: p.name, goal: null, background: null}));
  episode.tables = {
    ib_schedules: [{dataset: s.dataset, question_id: s.question_id, level: s.level, day_start: s.schedule.day.start, day_end: s.schedule.day.end,
      gold: s.gold, verifier: answer.text, gold_agrees: agrees, pair: s.schedule.pair ?? null}],
    ib_schedule_activities: s.schedule.people.flatMap((p, i): Record<string, unknown>[] => p.activities.length === 0
      ? [{person_index: i, person: p.name, activity: null, start_min: null, end_min: null, fixed: null}]
      : p.activities.map((a) => ({person_index: i, person: p.name, activity: a.name, start_min: a.start, end_min: a.end, fixed: a.fixed ?? null}))),
  };
  return episode;
}

function readSchedules(path: string, ctx: ReadContext) {
  return readJsonl(ctx.source, ctx.onProgress, (doc, line) => ({kind: "episode", line, episode: episodeFromSchedule(asObject(doc, "(record)"))}));
}

/** Bump when a change to this reader changes the rows a file gives: a stored file read by an older version is read again on its next import (session.ts). */
export const INFORMATIVEBENCH_SCHEDULES_READER_VERSION = 1;

export const informativebenchSchedulesFormat: ImportFormat = {
  name: "informativebench-schedules",
  readerVersion: INFORMATIVEBENCH_SCHEDULES_READER_VERSION,
  description: "InformativeBench Schedule inputs: each person's activities with start and end times, one question a line (JSONL)",
  read: readSchedules,
};
