// `sociometer verify-schedule FILE…`: reads InformativeBench schedule inputs
// (the `informativebench-schedules` JSONL format), computes each question's
// gold answer with the schedule verifier, and compares it with a gold answer
// stated in the record. Needs no store. Exit 0 when every stated gold agrees,
// 1 when one does not; an invalid record stops it with file:line: field: problem (exit 2).

import {basename, resolve} from "node:path";
import {DEFAULT_VERIFIER, EASY_TEXT, explainAnswer, FIXED_TEXT, type VerifierOptions} from "../../src/lib/schedule.js";
import {ImportError} from "../import/errors.js";
import {readJsonl} from "../import/files.js";
import {scheduleFromJson, verifyRecord} from "../import/informativebench-schedules.js";
import {asObject} from "../import/validate.js";
import type {EpisodeRecord} from "../import/records.js";
import {outputFormat, render, type ResultTable} from "./output.js";
import {parseCommandLine} from "./args.js";

export const VERIFY_HELP = `sociometer verify-schedule: the gold answers of InformativeBench schedule questions

Usage:
  sociometer verify-schedule <file.jsonl…> [--format table|csv|json]
      [--easy-overlap pooled|between] [--fixed-activities sleep|none]

Each line is one schedule question in the informativebench-schedules format
(docs/formats.md): dataset, question_id, people with their activities, and
optionally the gold answer to check. Easy: the fewest activities to delete so
that the two people's activities do not overlap (pooled, the default: no two
of them, one person's own included, as InformativeBench's generator; between:
only overlaps between the two people); medium: the longest activity among all
people (every one on a tie); hard: every common free span within the day.
Fixed activities (default: names containing "sleep", or "fixed": true in the
record) are never deleted and never the longest, but keep their person busy.
Activities that touch (10:00 end, 10:00 start) do not overlap.
Exit status: 0 all stated golds agree, 1 some disagree, 2 a record is invalid
(the message names its file, line and field).
`;

/** Verifies every record of `paths`; throws an Error naming file, line and field on an invalid one. */
export function verifyFiles(paths: readonly string[], options: VerifierOptions = DEFAULT_VERIFIER): ResultTable {
  const out: Record<string, unknown>[] = [];
  for (const path of paths.map((p) => resolve(p))) {
    const items = readJsonl(path, () => {}, (doc, line) => {
      const s = scheduleFromJson(asObject(doc, "(record)"));
      const {answer, agrees} = verifyRecord(s, options);
      out.push({
        file: basename(path), line, dataset: s.dataset, question_id: s.question_id, level: s.level, people: s.schedule.people.length,
        answer: answer.text, explanation: explainAnswer(answer, s.schedule), stated_gold: s.gold?.join(" | ") ?? "",
        agrees: agrees === null ? "" : agrees ? "yes" : "NO",
      });
      // readJsonl wants an import item; nothing is imported here.
      return {kind: "episode", line, episode: null as unknown as EpisodeRecord};
    });
    for (const item of items) if (item.kind === "reject") throw new Error(new ImportError(path, item.line, item.field, item.problem).message);
  }
  const disagree = out.filter((r) => r.agrees === "NO").length;
  const stated = out.filter((r) => r.agrees !== "").length;
  return {
    title: "Schedule questions and the verifier's gold answers",
    notes: [
      `easy: fewest deletions so the two people's activities do not overlap, overlaps ${EASY_TEXT[options.easy]}; medium: longest activity, ties included; hard: common free spans in the day`,
      `fixed activities: ${FIXED_TEXT[options.fixed]}`,
      `${out.length} question(s); ${stated} with a stated gold, ${disagree} disagreeing`,
    ],
    columns: ["file", "line", "dataset", "question_id", "level", "people", "answer", "explanation", "stated_gold", "agrees"],
    rows: out,
  };
}

export async function verifyScheduleCommand(argv: string[]): Promise<number> {
  const {values, positionals} = parseCommandLine({args: argv, allowPositionals: true, options: {
    format: {type: "string"}, help: {type: "boolean", short: "h"}, quiet: {type: "boolean"}, "easy-overlap": {type: "string"}, "fixed-activities": {type: "string"},
  }}, () => "sociometer verify-schedule <file.jsonl…> [--format table|csv|json] [--easy-overlap pooled|between] [--fixed-activities sleep|none]");
  if (values.help || !positionals.length) {
    process.stdout.write(VERIFY_HELP);
    return values.help ? 0 : 1;
  }
  const format = outputFormat(values.format);
  const easy = values["easy-overlap"] ?? DEFAULT_VERIFIER.easy;
  if (easy !== "pooled" && easy !== "between") throw new Error(`--easy-overlap must be pooled or between, not ${easy}`);
  const fixed = values["fixed-activities"] ?? DEFAULT_VERIFIER.fixed;
  if (fixed !== "sleep" && fixed !== "none") throw new Error(`--fixed-activities must be sleep or none, not ${fixed}`);
  const table = verifyFiles(positionals, {easy, fixed});
  process.stdout.write(render(table, format));
  return table.rows.some((r) => r.agrees === "NO") ? 1 : 0;
}
