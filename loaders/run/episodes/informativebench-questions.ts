// The questions of `sociometer run informativebench` (iAgents §3): Schedule
// questions from the store, split between the two agents, with the schedule
// verifier's gold; or a JSONL file of two people's private information and a
// question. Each agent's side is what it alone may see.

import {RecordProblem} from "../../import/errors.js";
import {goldList} from "../../import/informativebench-schedules.js";
import {asArray, asBoolean, asNonEmptyString, asObject, optionalString, type JsonObject} from "../../import/validate.js";
import {IB_SCHEDULES_SQL} from "../../queries/informativebench.js";
import {rows, type Store} from "../../store/db.js";
import {DatasetError, resolveDataset, schedulesFromRows, type IbMetric, type ScheduleRow, type StoredSchedule} from "../../../src/lib/informativebench.js";
import {DEFAULT_VERIFIER, easyPair, isFixed, verifySchedule, type Person} from "../../../src/lib/schedule.js";
import {formatClock} from "../../../src/lib/schedule-time.js";
import {readRecords} from "../profiles.js";

/** What one agent holds: whose agent it is, and their information as the prompt shows it. */
export interface IbSide {
  people: string;
  information: string;
}

export interface IbQuestion {
  dataset: string;
  /** Declared for a dataset outside the paper's five (resolveDataset). */
  metric: IbMetric | null;
  questionId: string;
  question: string;
  gold: string[];
  sides: [IbSide, IbSide];
  synthetic: boolean;
}

const names = (list: readonly string[]): string =>
  list.length <= 1 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;

/** A person's day as their agent reads it; fixed activities (sleep, by the verifier's rule) say so. */
function dayOf(p: Person): string {
  if (!p.activities.length) return `${p.name} has no activities today.`;
  const sorted = [...p.activities].sort((a, b) => a.start - b.start || a.end - b.end);
  return [`${p.name}'s schedule today:`, ...sorted.map((a) =>
    `- ${a.name}: ${formatClock(a.start)}-${formatClock(a.end)}${isFixed(a, DEFAULT_VERIFIER.fixed) ? " (fixed: it cannot be removed)" : ""}`)].join("\n");
}

/**
 * The two agents' people: the easy question's pair, one each; for the other
 * levels, everyone split in two, the first half (rounded up) to agent 1. The
 * paper gives every person an agent; with two agents and no recursive
 * communication, each agent stands for half of them.
 */
function splitPeople(s: StoredSchedule): [Person[], Person[]] {
  const people = s.schedule.people;
  if (s.level === "easy") {
    const [a, b] = easyPair(s.schedule);
    return [[people[a]!], [people[b]!]];
  }
  if (people.length < 2) throw new Error(`${s.dataset} question ${s.question_id} has ${people.length} person; a run needs at least two, one for each agent (leave it out with --dataset)`);
  const half = Math.ceil(people.length / 2);
  return [people.slice(0, half), people.slice(half)];
}

/** Our own wording of each level's question, stating the verifier's default rules so that its answer is the right one. */
function scheduleQuestion(s: StoredSchedule, sides: [Person[], Person[]]): string {
  const everyone = names(s.schedule.people.map((p) => p.name));
  if (s.level === "easy") {
    const [a, b] = [sides[0][0]!.name, sides[1][0]!.name];
    return `Taking ${a}'s and ${b}'s activities together, what is the smallest number of activities to remove so that no two of the remaining ones overlap (two of the same person's included)? ` +
      "Activities marked fixed cannot be removed and are left out. Activities that only touch (one ends at 10:00, the next starts at 10:00) do not overlap. Answer with a number.";
  }
  if (s.level === "medium") {
    return `Which activity lasts longest in the schedules of ${everyone}? Leave out activities marked fixed. If several are equally long, name every one of them. Answer with the activity names.`;
  }
  return `Between ${formatClock(s.schedule.day.start)} and ${formatClock(s.schedule.day.end)}, when are ${everyone} all free, with nobody in any activity (fixed ones included)? ` +
    "List every such time span, such as 9:00-10:30, or answer none.";
}

/** A stored Schedule question as a run's question; the gold is the verifier's answer under its default options. */
export function questionFromSchedule(s: StoredSchedule): IbQuestion {
  const split = splitPeople(s);
  const answer = verifySchedule(s.level, s.schedule, DEFAULT_VERIFIER);
  return {
    dataset: s.dataset, metric: null, questionId: s.question_id, question: scheduleQuestion(s, split),
    // An empty verifier text means nobody has an activity that counts; the importer wants that written out.
    gold: [answer.text.trim() || "none"],
    sides: split.map((people) => ({people: names(people.map((p) => p.name)), information: people.map(dayOf).join("\n\n")})) as [IbSide, IbSide],
    synthetic: false,
  };
}

/** Every Schedule question imported with `informativebench-schedules`, in dataset and question order. */
export async function questionsFromStore(store: Store): Promise<IbQuestion[]> {
  return [...schedulesFromRows(await rows<ScheduleRow>(store.conn, IB_SCHEDULES_SQL)).values()].map(questionFromSchedule);
}

/**
 * One question of an input file: `{dataset, metric?, question_id, question,
 * gold, people: [{name, information}, {name, information}], synthetic?}`,
 * the two people's private information, one per agent.
 */
export function questionFromRecord(o: JsonObject): IbQuestion {
  let resolved;
  try {
    resolved = resolveDataset(asNonEmptyString(o.dataset, "dataset"), optionalString(o.metric, "metric"));
  } catch (e) {
    if (e instanceof DatasetError) throw new RecordProblem(e.field, e.message);
    throw e;
  }
  const questionId = typeof o.question_id === "number" ? String(o.question_id) : asNonEmptyString(o.question_id, "question_id");
  if (o.gold === undefined || o.gold === null) throw new RecordProblem("gold", "expected the gold answer (a string, or an array of accepted answers)");
  const gold = goldList(o.gold, "gold");
  gold.forEach((g, i) => {
    if (!g.trim()) throw new RecordProblem(Array.isArray(o.gold) ? `gold[${i}]` : "gold", "empty gold answer: write \"none\" for nothing");
  });
  const people = asArray(o.people, "people");
  if (people.length !== 2) throw new RecordProblem("people", `expected two people, one for each agent, got ${people.length}`);
  const sides = people.map((p, i) => {
    const po = asObject(p, `people[${i}]`);
    const name = asNonEmptyString(po.name, `people[${i}].name`).trim();
    const information = asNonEmptyString(po.information, `people[${i}].information`);
    return {people: name, information: information.trim()};
  }) as [IbSide, IbSide];
  if (sides[0].people === sides[1].people) throw new RecordProblem("people[1].name", `the two people are both called ${JSON.stringify(sides[0].people)}`);
  const question = asNonEmptyString(o.question, "question");
  return {
    dataset: resolved.dataset, metric: o.metric === undefined || o.metric === null ? null : resolved.metric, questionId, question: question.trim(), gold, sides,
    synthetic: o.synthetic === undefined ? false : asBoolean(o.synthetic, "synthetic"),
  };
}

/** The questions of an input file (errors name the file, line and field); a question id twice in one dataset is an error. */
export function questionsFromFile(path: string): IbQuestion[] {
  const seen = new Map<string, number>();
  return readRecords(path, (o, line) => {
    const q = questionFromRecord(o);
    const key = `${q.dataset}\u0000${q.questionId}`;
    const before = seen.get(key);
    if (before !== undefined) throw new RecordProblem("question_id", `${JSON.stringify(q.questionId)} of ${q.dataset} is already on line ${before}`);
    seen.set(key, line);
    return q;
  });
}
