// STSS action level (METRICS.md § STSS; STSS Appendix A.1, Table 4): each
// simulation task's score from its observed outcome, Table 4's per-type means,
// Overall (the mean over tasks), the conversation ratio, and where a log's own
// score disagrees with the rule.

import {CATEGORIES, compareRows, type Category} from "./stss.js";

export const APPOINTMENT_OUTCOMES = ["met", "place_mismatch", "failed"] as const;
export type AppointmentOutcome = (typeof APPOINTMENT_OUTCOMES)[number];

/** The task types scored by the number of participants (A.1). */
export const COLLECTIVE: readonly Category[] = ["public_activity", "online_activity", "inviting_companions"];

/** A.1: half of the background characters for public and online activities, a third for inviting companions, rounded up. */
export function expectedParticipants(category: Category, backgroundCharacters: number): number {
  if (!Number.isInteger(backgroundCharacters) || backgroundCharacters < 1) throw new Error(`background characters must be a whole number ≥ 1, got ${backgroundCharacters}`);
  if (category === "public_activity" || category === "online_activity") return Math.ceil(backgroundCharacters / 2);
  if (category === "inviting_companions") return Math.ceil(backgroundCharacters / 3);
  throw new Error(`${category} tasks are not scored by participants`);
}

/** A.1: s = min(actual / expected, 1). */
export function collectiveScore(actual: number, expected: number): number {
  if (actual < 0 || expected <= 0) throw new Error(`cannot score ${actual} participants of ${expected} expected`);
  return Math.min(actual / expected, 1);
}

/** A.1: 1 when both did the action at the same time and place, 0.5 when only the place mismatched, else 0. */
export function appointmentScore(outcome: AppointmentOutcome): number {
  return outcome === "met" ? 1 : outcome === "place_mismatch" ? 0.5 : 0;
}

/**
 * What "all sub-tasks in the correct order" (A.1) means when a log repeats a
 * sub-task, e.g. [deliver, buy, deliver]. The paper's intent is "the
 * proportion of actions performed in the appropriate order", so by default
 * (`subsequence`) the task's order only has to appear in the log: buy, then a
 * later deliver, scores 1 even after an early, premature delivery. `first`
 * reads each sub-task's first completion only: the early delivery puts
 * deliver before buy, so the same log scores 0.5.
 */
export type HelpOrderRule = "subsequence" | "first";
export const HELP_ORDER_RULES: readonly HelpOrderRule[] = ["subsequence", "first"];

/** Is `required` a subsequence of `done` (every sub-task, each after the previous one)? */
function containsInOrder(required: readonly string[], done: readonly string[]): boolean {
  let next = 0;
  for (const d of done) if (next < required.length && d === required[next]) next++;
  return next === required.length;
}

/** Do the first completions of the required sub-tasks cover all of them, in the task's order? */
function firstsInOrder(required: readonly string[], done: readonly string[]): boolean {
  const firsts = [...new Set(done.filter((d) => required.includes(d)))];
  return firsts.length === required.length && firsts.every((d, i) => d === required[i]);
}

/** Distinct required sub-tasks that were done at least once. */
export const subtasksDone = (required: readonly string[], done: readonly string[]): number => new Set(done.filter((d) => required.includes(d))).size;

/**
 * A.1 as the paper simplifies it: 1 when every sub-task was done in the
 * task's order (as `rule` reads order), 0.5 when at least one was done, else 0.
 * `done` lists sub-task keywords in the order they were done.
 */
export function helpScore(required: readonly string[], done: readonly string[], rule: HelpOrderRule = "subsequence"): number {
  if (!required.length) throw new Error("an asking-for-help task needs at least one sub-task");
  if (!subtasksDone(required, done)) return 0;
  const inOrder = rule === "subsequence" ? containsInOrder(required, done) : firstsInOrder(required, done);
  return inOrder ? 1 : 0.5;
}

/**
 * Inviting companions when the initiator did not attend. §3.1 says the metric
 * counts participants "with the initiator being a mandatory attendee"; A.1's
 * formula does not mention the initiator. `mandatory` (default, §3.1) scores
 * such a run 0; `ignored` (A.1's formula alone) scores it by its participants.
 */
export type InitiatorRule = "mandatory" | "ignored";
export const INITIATOR_RULES: readonly InitiatorRule[] = ["mandatory", "ignored"];

/** The choices the paper leaves open at the action level; page and CLI show them next to the numbers. */
export interface ActionRules {
  helpOrder: HelpOrderRule;
  initiator: InitiatorRule;
}

export const DEFAULT_ACTION_RULES: ActionRules = {helpOrder: "subsequence", initiator: "mandatory"};

/** The scoring rules in words, with the two named choices (help order, initiator) as they are set; page and CLI print it beside Table 4. */
export function actionRulesText(rules: ActionRules): string {
  return "task scores are computed here from each run's observed outcome by Appendix A.1: min(participants / ⌈background/2⌉, 1) for public and online activities, " +
    "⌈background/3⌉ for inviting companions; appointment 1 met, 0.5 place mismatch, else 0; asking for help 1 all sub-tasks in order, 0.5 at least one, else 0. " +
    `Initiator rule (--initiator): ${rules.initiator}${rules.initiator === DEFAULT_ACTION_RULES.initiator ? " (default)" : ""}, ` +
    (rules.initiator === "mandatory" ? "an inviting-companions run whose initiator did not attend scores 0 (§3.1: a mandatory attendee)" : "the initiator's attendance is not looked at (A.1's formula alone)") +
    `. Help order (--help-order): ${rules.helpOrder}${rules.helpOrder === DEFAULT_ACTION_RULES.helpOrder ? " (default)" : ""}, ` +
    (rules.helpOrder === "subsequence" ? "in order when the task's sub-tasks appear in the log in that order, repeats and early attempts aside"
      : "in order when each sub-task's first completion follows the task's order");
}

/** One simulation run as the runs query gives it (loaders/queries/stss.ts). */
export interface RunRow {
  episode_id: string;
  model: string;
  architecture: string;
  task_id: string;
  category: Category;
  /** Tells repeated runs of one task apart (null for a single run). */
  run_label: string | null;
  background_characters: number;
  participants: number | null;
  performer_attended: boolean | null;
  appointment: AppointmentOutcome | null;
  subtasks_done: string[] | null;
  /** The task's sub-goal keywords in order (task.goal[].keyword). */
  subtasks_required: string[];
  conversations_initiated: number | null;
  conversations_demanded: number | null;
  /** Scores the log itself carries (ratings on `task_score`), by rater. */
  logged_raters: string[] | null;
  logged_scores: number[] | null;
}

export interface TaskScoreResult {
  score: number;
  /** Expected participants, for collective tasks. */
  expected: number | null;
  /** The rule applied, in words. */
  rule: string;
}

/** A run's score by the rule of its task type, from the observed outcome. */
export function taskScore(run: RunRow, rules: ActionRules = DEFAULT_ACTION_RULES): TaskScoreResult {
  if (COLLECTIVE.includes(run.category)) {
    if (run.participants === null) throw new Error(`run ${run.episode_id}: a ${run.category} task needs the participant count`);
    const expected = expectedParticipants(run.category, run.background_characters);
    const divisor = run.category === "inviting_companions" ? 3 : 2;
    const formula = `min(${run.participants} / ⌈${run.background_characters}/${divisor}⌉ = ${expected}, 1)`;
    if (run.category === "inviting_companions" && rules.initiator === "mandatory") {
      if (run.performer_attended === null) throw new Error(`run ${run.episode_id}: an inviting-companions task needs performer_attended under the mandatory-initiator rule`);
      // §3.1: the initiator is a mandatory attendee; without them, nobody joined the performer.
      if (!run.performer_attended) return {score: 0, expected, rule: "the initiator did not attend (initiator rule: mandatory, §3.1)"};
    }
    return {score: collectiveScore(run.participants, expected), expected, rule: formula};
  }
  if (run.category === "appointment") {
    if (run.appointment === null) throw new Error(`run ${run.episode_id}: an appointment task needs its outcome`);
    return {score: appointmentScore(run.appointment), expected: null, rule: `appointment ${run.appointment}`};
  }
  if (run.subtasks_done === null) throw new Error(`run ${run.episode_id}: an asking-for-help task needs the sub-tasks done`);
  const score = helpScore(run.subtasks_required, run.subtasks_done, rules.helpOrder);
  const done = subtasksDone(run.subtasks_required, run.subtasks_done);
  const order = score === 1 ? ", in order" : done === run.subtasks_required.length ? `, not in order (help order: ${rules.helpOrder})` : "";
  return {score, expected: null, rule: `${done} of ${run.subtasks_required.length} sub-tasks done${order}`};
}

export type ConvRatioRule = "mean" | "pooled";

export interface TypeCell {
  mean: number;
  tasks: number;
}

export interface Table4Row {
  model: string;
  architecture: string;
  byType: Record<Category, TypeCell>;
  /** Mean over all tasks: types weigh by their task counts. */
  overall: number;
  tasks: number;
  runs: number;
  convRatio: number;
  /** Tasks (asking for help excluded) whose ratio enters conv_ratio: those with conversations demanded > 0. */
  convTasks: number;
  /** Tasks (asking for help excluded) left out of conv_ratio: no conversation counts, or none demanded. */
  convTasksWithout: number;
}

/** Σ n_k · m_k / Σ n_k: the mean over tasks, from per-type means and task counts (types without tasks ignored). */
export function overallFromTypes(cells: readonly TypeCell[]): number {
  const n = cells.reduce((s, c) => s + (c.tasks > 0 ? c.tasks : 0), 0);
  return n ? cells.reduce((s, c) => s + (c.tasks > 0 ? c.tasks * c.mean : 0), 0) / n : NaN;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

/**
 * Table 4 per (model, architecture): the mean score per task type, Overall
 * (mean over tasks; a task with several runs counts once, with its runs'
 * mean), and the conversation ratio initiated / demanded over tasks other than
 * asking for help: `mean` of per-task ratios (default) or `pooled`
 * Σ initiated / Σ demanded. A task demanding no conversation has no ratio.
 */
export function table4(runs: readonly RunRow[], {convRatio = "mean", models, rules = DEFAULT_ACTION_RULES}: {convRatio?: ConvRatioRule; models?: readonly string[]; rules?: ActionRules} = {}): Table4Row[] {
  const groups = new Map<string, RunRow[]>();
  for (const r of runs) {
    if (models?.length && !models.includes(r.model)) continue;
    const k = `${r.model}\u0000${r.architecture}`;
    const list = groups.get(k);
    if (list) list.push(r);
    else groups.set(k, [r]);
  }
  const out: Table4Row[] = [];
  for (const list of groups.values()) {
    const tasks = new Map<string, {category: Category; scores: number[]; initiated: number; demanded: number; ratios: number[]}>();
    for (const r of list) {
      const t = tasks.get(r.task_id) ?? {category: r.category, scores: [], initiated: 0, demanded: 0, ratios: []};
      t.scores.push(taskScore(r, rules).score);
      if (r.conversations_initiated !== null && r.conversations_demanded !== null && r.conversations_demanded > 0) {
        t.initiated += r.conversations_initiated;
        t.demanded += r.conversations_demanded;
        t.ratios.push(r.conversations_initiated / r.conversations_demanded);
      }
      tasks.set(r.task_id, t);
    }
    const taskList = [...tasks.values()];
    const byType = Object.fromEntries(CATEGORIES.map((c) => {
      const of = taskList.filter((t) => t.category === c.key);
      return [c.key, {mean: mean(of.map((t) => mean(t.scores))), tasks: of.length}];
    })) as Record<Category, TypeCell>;
    const convTasks = taskList.filter((t) => t.category !== "asking_for_help" && t.ratios.length);
    const ratio = convRatio === "mean"
      ? mean(convTasks.map((t) => mean(t.ratios)))
      : convTasks.reduce((s, t) => s + t.initiated, 0) / convTasks.reduce((s, t) => s + t.demanded, 0);
    out.push({
      model: list[0]!.model, architecture: list[0]!.architecture, byType,
      overall: mean(taskList.map((t) => mean(t.scores))), tasks: taskList.length, runs: list.length,
      convRatio: convTasks.length ? ratio : NaN, convTasks: convTasks.length,
      convTasksWithout: taskList.filter((t) => t.category !== "asking_for_help" && !t.ratios.length).length,
    });
  }
  return out.sort(compareRows);
}

export interface ScoreDisagreement {
  episode_id: string;
  model: string;
  architecture: string;
  task_id: string;
  category: Category;
  rater: string;
  logged: number;
  computed: number;
  rule: string;
}

/** A logged score agrees with the rule's within half a unit of the third decimal: logs print scores rounded to three decimals. */
export const SCORE_TOLERANCE = 0.0005;

/** Does a logged score agree with the rule's? */
export const scoresAgree = (logged: number, computed: number, tolerance = SCORE_TOLERANCE): boolean => Math.abs(logged - computed) <= tolerance;

/** Runs whose log carries a score that differs from the rule's by more than `tolerance`. */
export function scoreDisagreements(runs: readonly RunRow[], {rules = DEFAULT_ACTION_RULES, tolerance = SCORE_TOLERANCE}: {rules?: ActionRules; tolerance?: number} = {}): ScoreDisagreement[] {
  const out: ScoreDisagreement[] = [];
  for (const r of runs) {
    if (!r.logged_scores?.length) continue;
    const s = taskScore(r, rules);
    r.logged_scores.forEach((logged, i) => {
      if (!scoresAgree(logged, s.score, tolerance)) {
        out.push({episode_id: r.episode_id, model: r.model, architecture: r.architecture, task_id: r.task_id, category: r.category,
          rater: r.logged_raters?.[i] ?? "log", logged, computed: s.score, rule: s.rule});
      }
    });
  }
  return out.sort((a, b) => compareRows(a, b) || (a.task_id < b.task_id ? -1 : a.task_id > b.task_id ? 1 : 0));
}

/** Runs that carry a logged score at all. */
export const loggedRuns = (runs: readonly RunRow[]): number => runs.filter((r) => r.logged_scores?.length).length;

export interface LoggedScore {
  rater: string;
  logged: number;
  agrees: boolean;
}

/** Every score a run's log carries (one per rater), each against the rule's score. */
export function loggedScores(run: RunRow, score: number, tolerance = SCORE_TOLERANCE): LoggedScore[] {
  return (run.logged_scores ?? []).map((logged, i) => ({rater: run.logged_raters?.[i] ?? "log", logged, agrees: scoresAgree(logged, score, tolerance)}));
}
