// Format `hsii`: HSII runs as JSONL, one record per (model, test case, setting)
// (docs/formats.md). Stages 1 and 2 come from the log when it states them,
// else from the response parser; both are kept so disagreements can be shown.

import {parseResponse, targetMatches} from "../../src/lib/hsii-response.js";
import {RecordProblem} from "./errors.js";
import {readJsonl} from "./files.js";
import {emptyEpisode, type EpisodeRecord, type RaterKind} from "./records.js";
import type {ImportFormat, ReadContext} from "./format.js";
import {asArray, asBoolean, asNonEmptyString, asObject, asString, optionalString, type JsonObject} from "./validate.js";

const VERDICTS = ["win", "tie", "loss"];
const POSITIONS = ["forward", "swapped"];
const RATER_KINDS: readonly RaterKind[] = ["llm", "human", "rule"];

export function episodeFromHsii(r: JsonObject): EpisodeRecord {
  const caseId = asNonEmptyString(r.case_id, "case_id");
  const model = asNonEmptyString(r.model, "model");
  const cot = r.cot === undefined ? false : asBoolean(r.cot, "cot");
  const episode = emptyEpisode(optionalString(r.episode_id, "episode_id") ?? `${model}|${caseId}|${cot ? "cot" : "plain"}`, "hsii");
  episode.scenario_id = caseId;
  episode.task_type = optionalString(r.cluster, "cluster");
  episode.synthetic = r.synthetic === true;
  const goldRaw = r.gold_target;
  const gold = (typeof goldRaw === "string" ? [goldRaw] : asArray(goldRaw, "gold_target")).map((g, i) => asNonEmptyString(g, `gold_target[${i}]`));
  if (!gold.length) throw new RecordProblem("gold_target", "needs at least one accepted name");

  // Seat 1 is the tested model; the people of the dialogue history take the next seats.
  const history = r.history === undefined ? [] : asArray(r.history, "history").map((h, i) => {
    const o = asObject(h, `history[${i}]`);
    return {speaker: asNonEmptyString(o.speaker, `history[${i}].speaker`), content: asString(o.content, `history[${i}].content`)};
  });
  const speakers = [...new Set(history.map((h) => h.speaker))];
  episode.participants = [
    {agent: 1, agent_ref: null, model, character: "assistant (tested model)", goal: null, background: null},
    ...speakers.map((s, i) => ({agent: i + 2, agent_ref: null, model: "dataset", character: s, goal: null, background: null})),
  ];
  const response = optionalString(r.response, "response");
  episode.messages = [
    ...history.map((h, i) => ({turn: i, agent: speakers.indexOf(h.speaker) + 2, action_type: "speak", content: h.content})),
    ...(response === null ? [] : [{turn: history.length, agent: 1, action_type: "speak", content: response}]),
  ];

  const parser = parseResponse(response ?? "");
  const loggedParsed = r.parsed === undefined ? null : asBoolean(r.parsed, "parsed");
  const loggedTarget = optionalString(r.selected_target, "selected_target");
  const parsed = loggedParsed ?? parser.ok;
  const target = loggedTarget ?? (parser.ok ? parser.target : null);
  if (loggedParsed === null && loggedTarget === null && response === null) throw new RecordProblem("response", "is missing, and the log does not say whether it parsed (parsed, selected_target)");

  const judgments = (r.judgments === undefined ? [] : asArray(r.judgments, "judgments")).map((j, i) => {
    const f = `judgments[${i}]`;
    const o = asObject(j, f);
    const stage = o.stage;
    if (stage !== 3 && stage !== 4) throw new RecordProblem(`${f}.stage`, `expected 3 (first utterance) or 4 (long run), got ${JSON.stringify(stage)}`);
    const position = asString(o.position, `${f}.position`);
    if (!POSITIONS.includes(position)) throw new RecordProblem(`${f}.position`, `expected forward or swapped, got ${JSON.stringify(position)}`);
    const verdict = asString(o.verdict, `${f}.verdict`);
    if (!VERDICTS.includes(verdict)) throw new RecordProblem(`${f}.verdict`, `expected win, tie or loss, got ${JSON.stringify(verdict)}`);
    const rater_kind = asString(o.rater_kind ?? "llm", `${f}.rater_kind`) as RaterKind;
    if (!RATER_KINDS.includes(rater_kind)) throw new RecordProblem(`${f}.rater_kind`, `expected one of ${RATER_KINDS.join(", ")}`);
    return {stage, rater: asNonEmptyString(o.rater, `${f}.rater`), rater_kind, position, verdict};
  });
  const seen = new Set<string>();
  for (const [i, j] of judgments.entries()) {
    const key = `${j.stage}/${j.rater}/${j.position}`;
    if (seen.has(key)) throw new RecordProblem(`judgments[${i}]`, `${j.rater} already judged stage ${j.stage} in the ${j.position} order`);
    seen.add(key);
  }

  const cotRounds = (r.cot_runs === undefined ? [] : asArray(r.cot_runs, "cot_runs")).flatMap((run, i) => {
    const o = asObject(run, `cot_runs[${i}]`);
    const variant = asNonEmptyString(o.variant, `cot_runs[${i}].variant`);
    const rounds = asArray(o.rounds, `cot_runs[${i}].rounds`);
    if (!rounds.length) throw new RecordProblem(`cot_runs[${i}].rounds`, "needs at least round 0 (the answer without COT)");
    return rounds.map((ok, round) => ({variant, round, correct: asBoolean(ok, `cot_runs[${i}].rounds[${round}]`)}));
  });

  episode.tables = {
    hsii_cases: [{
      case_id: caseId, cluster: episode.task_type, topic: optionalString(r.topic, "topic"), cot, response, gold_targets: gold,
      gold_utterance: optionalString(r.gold_utterance, "gold_utterance"), logged_parsed: loggedParsed, logged_target: loggedTarget,
      parsed, target, utterance: parser.ok ? parser.utterance : null,
      parse_route: loggedParsed !== null || loggedTarget !== null ? "log" : parser.ok ? parser.route : null,
      parser_parsed: parser.ok, parser_target: parser.ok ? parser.target : null, parse_problem: parser.ok ? null : parser.problem,
      target_correct: parsed && target !== null && targetMatches(target, gold),
    }],
    hsii_judgments: judgments,
    hsii_cot_rounds: cotRounds,
  };
  episode.settings = {cot, ...(r.topic !== undefined ? {topic: r.topic} : {})};
  return episode;
}

function readHsii(path: string, ctx: ReadContext) {
  return readJsonl(ctx.source, ctx.onProgress, (doc, line) => ({kind: "episode", line, episode: episodeFromHsii(asObject(doc, "(record)"))}));
}

/** Bump when a change to this reader changes the rows a file gives: a stored file read by an older version is read again on its next import (session.ts). */
export const HSII_READER_VERSION = 1;

export const hsiiFormat: ImportFormat = {
  name: "hsii",
  readerVersion: HSII_READER_VERSION,
  description: "HSII runs: one record per (model, case, setting) with the raw response, gold target, swapped-order judgments and COT rounds (JSONL)",
  read: readHsii,
};
