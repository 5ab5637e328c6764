// Format `informativebench`: InformativeBench results as JSONL, one record per
// (backend model, question, settings): the prediction, the gold answer, the
// run's settings and communication turns, and optionally the InfoNav
// trajectory (docs/formats.md). Gold answers are checked here (a span that
// does not parse, an end before its start, a gold that normalises to
// nothing); predictions are the model's and are scored as they are.

import {goldSpans, normaliseAnswer} from "../../src/lib/informativebench-answers.js";
import {DatasetError, DEFAULT_SETTINGS, resolveDataset, settingsKey, type IbSettings} from "../../src/lib/informativebench.js";
import {RecordProblem} from "./errors.js";
import {readJsonl} from "./files.js";
import {goldList} from "./informativebench-schedules.js";
import {emptyEpisode, type EpisodeRecord} from "./records.js";
import type {ImportFormat, ReadContext} from "./format.js";
import {asArray, asBoolean, asNonEmptyString, asObject, asString, describe, INT32_MAX, optionalString, type JsonObject} from "./validate.js";

/** Keys of `settings` and what each sets; `memory` lists the memory types that were on. */
const SETTING_FIELDS = ["infonav", "memory", "recursive", "anonymised", "privacy_prompt"];
const MEMORY_TYPES = ["distinct", "fuzzy"];
const STATUSES: Record<string, string> = {unknown: "unknown", known: "known", fake_solved: "fake_solved", "fake solved": "fake_solved", "fake-solved": "fake_solved"};

function settingsOf(v: unknown): IbSettings {
  const s: IbSettings = {...DEFAULT_SETTINGS};
  if (v === undefined || v === null) return s;
  const o = asObject(v, "settings");
  for (const key of Object.keys(o)) {
    if (!SETTING_FIELDS.includes(key)) throw new RecordProblem(`settings.${key}`, `unknown setting; known settings: ${SETTING_FIELDS.join(", ")}`);
  }
  if (o.infonav !== undefined) s.infonav = asBoolean(o.infonav, "settings.infonav");
  if (o.recursive !== undefined) s.recursive = asBoolean(o.recursive, "settings.recursive");
  if (o.anonymised !== undefined) s.anonymised = asBoolean(o.anonymised, "settings.anonymised");
  if (o.privacy_prompt !== undefined) s.privacy_prompt = asBoolean(o.privacy_prompt, "settings.privacy_prompt");
  if (o.memory !== undefined) {
    const types = asArray(o.memory, "settings.memory").map((m, i) => {
      const t = asString(m, `settings.memory[${i}]`);
      if (!MEMORY_TYPES.includes(t)) throw new RecordProblem(`settings.memory[${i}]`, `expected distinct or fuzzy, got ${JSON.stringify(t)}`);
      return t;
    });
    s.distinct_memory = types.includes("distinct");
    s.fuzzy_memory = types.includes("fuzzy");
  }
  return s;
}

/** The InfoNav trajectory: one plan per agent, each a list of updates (update 0 = the initial plan) and a consensus step. */
function trajectoryRows(v: unknown): {updates: Record<string, unknown>[]; consensus: Record<string, unknown>[]} {
  const updates: Record<string, unknown>[] = [];
  const consensus: Record<string, unknown>[] = [];
  if (v === undefined || v === null) return {updates, consensus};
  const plans = Array.isArray(v) ? v : [v];
  plans.forEach((p, pi) => {
    const f = Array.isArray(v) ? `trajectory[${pi}]` : "trajectory";
    const o = asObject(p, f);
    const agent = optionalString(o.agent, `${f}.agent`);
    const list = asArray(o.updates, `${f}.updates`);
    if (!list.length) throw new RecordProblem(`${f}.updates`, "needs at least the initial plan (update 0)");
    list.forEach((u, ui) => {
      const rationales = asArray(u, `${f}.updates[${ui}]`);
      if (!rationales.length) throw new RecordProblem(`${f}.updates[${ui}]`, "a plan lists at least one rationale");
      const seen = new Set<string>();
      rationales.forEach((r, ri) => {
        const rf = `${f}.updates[${ui}][${ri}]`;
        const ro = asObject(r, rf);
        const rationale = asNonEmptyString(ro.rationale, `${rf}.rationale`);
        if (seen.has(rationale)) throw new RecordProblem(`${rf}.rationale`, `${JSON.stringify(rationale)} is listed twice in this update`);
        seen.add(rationale);
        const statusText = asString(ro.status, `${rf}.status`);
        const status = STATUSES[statusText.toLowerCase()];
        if (!status) throw new RecordProblem(`${rf}.status`, `expected unknown, known or fake_solved, got ${JSON.stringify(statusText)}`);
        updates.push({plan: pi + 1, agent, update_index: ui, rationale, status});
      });
    });
    if (o.consensus !== undefined && o.consensus !== null) {
      // The consensus step keeps or drops rationales of this plan: each one the plan lists, and each once.
      const inPlan = new Set(updates.filter((u) => u.plan === pi + 1).map((u) => u.rationale as string));
      const decided = new Map<string, string>();
      const c = asObject(o.consensus, `${f}.consensus`);
      for (const [key, kept] of [["kept", true], ["dropped", false]] as const) {
        const names = c[key] === undefined ? [] : asArray(c[key], `${f}.consensus.${key}`);
        names.forEach((n, i) => {
          const field = `${f}.consensus.${key}[${i}]`;
          const rationale = asNonEmptyString(n, field);
          if (!inPlan.has(rationale)) throw new RecordProblem(field, `${JSON.stringify(rationale)} is not a rationale of this plan (its updates list ${[...inPlan].slice(0, 5).map((r) => JSON.stringify(r)).join(", ")}${inPlan.size > 5 ? ", …" : ""})`);
          const before = decided.get(rationale);
          if (before) throw new RecordProblem(field, `${JSON.stringify(rationale)} is already in ${before}: a rationale is kept or dropped, once`);
          decided.set(rationale, `consensus.${key}[${i}]`);
          consensus.push({plan: pi + 1, rationale, kept});
        });
      }
    }
  });
  return {updates, consensus};
}

export function episodeFromInformativeBench(r: JsonObject): EpisodeRecord {
  const model = asNonEmptyString(r.model, "model");
  const questionId = typeof r.question_id === "number" ? String(r.question_id) : asNonEmptyString(r.question_id, "question_id");
  let resolved;
  try {
    resolved = resolveDataset(asNonEmptyString(r.dataset, "dataset"), optionalString(r.metric, "metric"));
  } catch (e) {
    if (e instanceof DatasetError) throw new RecordProblem(e.field, e.message);
    throw e;
  }
  const {dataset, metric} = resolved;
  const question = asString(r.question, "question");
  const prediction = r.prediction === undefined || r.prediction === null ? null : typeof r.prediction === "number" ? String(r.prediction) : asString(r.prediction, "prediction");
  if (r.gold === undefined) throw new RecordProblem("gold", `expected the gold answer, got ${describe(r.gold)}`);
  const gold = goldList(r.gold, "gold");
  gold.forEach((g, i) => {
    const field = gold.length === 1 && !Array.isArray(r.gold) ? "gold" : `gold[${i}]`;
    if (g.trim() === "") {
      // An empty gold would read as "nothing" and score a missing or evasive answer right.
      const nothing = metric === "iou" ? "\"none\" for no common free span" : metric === "f1" ? "\"none\" for no activity" : "the answer";
      throw new RecordProblem(field, `empty gold answer: write ${nothing}`);
    }
    if (metric === "iou") {
      try {
        goldSpans([g]);
      } catch (e) {
        throw new RecordProblem(field, `${(e as Error).message} (ScheduleHard gold is a list of free spans)`);
      }
    } else if (normaliseAnswer(g) === "" && metric === "precision") {
      throw new RecordProblem(field, `${JSON.stringify(g)} is empty once normalised (case, punctuation and articles removed): no prediction could match it`);
    }
  });
  const settings = settingsOf(r.settings);
  const turns = r.turns === undefined || r.turns === null ? null : r.turns;
  if (turns !== null && !(typeof turns === "number" && Number.isInteger(turns) && turns >= 0 && turns <= INT32_MAX)) {
    throw new RecordProblem("turns", `expected a whole number from 0 to ${INT32_MAX}, got ${describe(turns)}`);
  }
  const run = optionalString(r.run, "run");

  const defaultId = [model, dataset, questionId, settingsKey(settings), ...(run === null ? [] : [run])].join("|");
  const episode = emptyEpisode(optionalString(r.episode_id, "episode_id") ?? defaultId, "informativebench");
  episode.scenario_id = questionId;
  episode.task_type = dataset;
  episode.synthetic = r.synthetic === true;
  episode.settings = {...settings, metric};
  episode.participants = [{agent: 1, agent_ref: null, model, character: "backend model", goal: null, background: null}];
  const {updates, consensus} = trajectoryRows(r.trajectory);
  episode.tables = {
    ib_results: [{
      question_id: questionId, dataset, metric, metric_declared: r.metric !== undefined && r.metric !== null, question, prediction, gold,
      run, turns, ...settings,
    }],
    ib_plan_updates: updates,
    ib_consensus: consensus,
  };
  return episode;
}

function readInformativeBench(path: string, ctx: ReadContext) {
  return readJsonl(ctx.source, ctx.onProgress, (doc, line) => ({kind: "episode", line, episode: episodeFromInformativeBench(asObject(doc, "(record)"))}));
}

/** Bump when a change to this reader changes the rows a file gives: a stored file read by an older version is read again on its next import (session.ts). */
export const INFORMATIVEBENCH_READER_VERSION = 1;

export const informativebenchFormat: ImportFormat = {
  name: "informativebench",
  readerVersion: INFORMATIVEBENCH_READER_VERSION,
  description: "InformativeBench results: one record per (backend model, question, settings) with prediction, gold, settings and the InfoNav trajectory (JSONL)",
  read: readInformativeBench,
};
