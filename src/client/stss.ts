// Data for the STSS page: conversation rows, simulation runs and task
// definitions (decoded directly), and the sentences that say which options
// produced the numbers. Every number is computed by src/lib/stss.ts and
// src/lib/stss-action.ts, as the CLI's `report stss` and `report stss-action` do.

import {actionRulesText, DEFAULT_ACTION_RULES, SCORE_TOLERANCE, type ActionRules, type ConvRatioRule, type RunRow} from "../lib/stss-action.js";
import {
  conditionSetMismatches, mismatchText, offTargetConversations, runLabel, sameSet, table3, verdictSetLabel, verdictSets, type AppointmentPartners, type Category,
  type ConversationRow, type Table3Row, type VerdictSet, type VerdictSetCount,
} from "../lib/stss.js";
import {decodeView, orderBy, type Tables} from "./tables.js";

/** One row of data/stss-tasks.parquet. */
export interface TaskRow {
  task_id: string;
  source_type: string;
  category: Category;
  performer: string;
  target_num: number | null;
  characters: number;
  goals: number;
  synthetic: boolean;
}

export interface StssData {
  conversations: ConversationRow[];
  runs: RunRow[];
  tasks: TaskRow[];
  /** Verdict sets (rater · judging run); the default (most verdicts) first, as the CLI picks it. */
  verdictSets: VerdictSetCount[];
}

/** The page's data from its decoded tables, in the order the SQL path gave them. */
export function stssData(tables: Tables<"stss_conversations" | "stss_runs" | "stss_tasks">): StssData {
  const conversations = orderBy(tables.stss_conversations as unknown as ConversationRow[], ["model", "architecture", "task_id", "conversation_id", "level", "rater", "run_id"]);
  const runs = orderBy(tables.stss_runs as unknown as RunRow[], ["model", "architecture", "task_id", "run_label"]);
  return {conversations, runs, tasks: stssTasks(tables), verdictSets: verdictSets(conversations)};
}

/** The task definitions in the SQL's order. */
export const stssTasks = (tables: Tables<"stss_tasks">): TaskRow[] => orderBy(tables.stss_tasks as unknown as TaskRow[], ["category", "task_id"]);

/**
 * What the first view draws (stss-first-view.bin), bounded by models,
 * architectures and verdict sets: Table 3 under the default options (the set
 * with the most verdicts, target partners), the verdict sets for the input,
 * and how many rows the store holds.
 */
export interface StssFirstView {
  conversations: number;
  runs: number;
  verdictSets: VerdictSetCount[];
  appointmentPartners: AppointmentPartners;
  t3: Table3Row[];
}

/** The first view from the page's data, computed at build time by the same functions the page runs. */
export function stssFirstView(data: StssData): StssFirstView {
  const set = data.verdictSets[0] ?? null;
  const lang = {verdicts: set === null ? null : {rater: set.rater, run_id: set.run_id}, appointmentPartners: "target" as const};
  return {conversations: data.conversations.length, runs: data.runs.length, verdictSets: data.verdictSets, appointmentPartners: lang.appointmentPartners, t3: table3(data.conversations, lang)};
}

export const readStssFirstView = (tables: Tables<"stss_first">): StssFirstView => decodeView<StssFirstView>(tables.stss_first, "data/stss-first-view.bin");

/** Table 3 for `lang` before the conversation rows have come: the first view's when they are its options, else null (still loading). */
export function table3BeforeRows(first: StssFirstView, lang: {verdicts: VerdictSet | null; appointmentPartners: AppointmentPartners}): Table3Row[] | null {
  const set = first.verdictSets[0] ?? null;
  const sameVerdicts = (lang.verdicts === null && set === null) || sameSet(lang.verdicts, set);
  return sameVerdicts && lang.appointmentPartners === first.appointmentPartners ? first.t3 : null;
}

/**
 * The language-level part of the page's one "Options in effect" box: which
 * verdict set and partner rule produce Table 3 and the failing conditions, and
 * what they leave out. Definitions (SR, GCSR, micro, macro) live in Table 3's caption.
 */
export function languageOptionsText(rows: readonly ConversationRow[], {verdicts, defaultSet, appointmentPartners}:
  {verdicts: VerdictSet | null; defaultSet: VerdictSet | null; appointmentPartners: AppointmentPartners}): string {
  const who = verdicts === null ? "none (no goal-condition verdicts)"
    : `${verdicts.rater}; run (--run-id): ${runLabel(verdicts.run_id)}${sameSet(verdicts, defaultSet) ? " (default: the rater and run with the most verdicts)" : ""}`;
  const others = verdictSets(rows).filter((s) => !sameSet(s, verdicts));
  const partners = appointmentPartners === "target"
    ? `target (default; §3.2 counts only conversations between the performer and the target person): ${offTargetConversations(rows, "target")} appointment conversation(s) with someone else left out`
    : "all: every appointment conversation counts, with the target person or not";
  return `Language level (Table 3, failing conditions). Condition rater (--rater): ${who}. Only this one set of verdicts is combined into the numbers` +
    (others.length ? `; other sets, not used: ${others.map((s) => `${verdictSetLabel(s)} (${s.verdicts} verdicts)`).join(", ")}` : "") + ". " +
    `Appointment partners (--appointment-partners): ${partners}.`;
}

/** The one-line reminder beside a language-level table: the options in force, in a few words. */
export function languageCaption({verdicts, appointmentPartners}: {verdicts: VerdictSet | null; appointmentPartners: AppointmentPartners}): string {
  return `Verdicts: ${verdicts ? verdictSetLabel(verdicts) : "none"}; appointment partners: ${appointmentPartners} (see Options in effect).`;
}

/** A warning when the chosen set judged a task's conversations on different condition lists, or "" when it did not. */
export function mismatchWarning(rows: readonly ConversationRow[], options: {verdicts: VerdictSet | null; appointmentPartners: AppointmentPartners}): string {
  const mismatches = options.verdicts ? conditionSetMismatches(rows, options) : [];
  return mismatches.length
    ? `Warning: condition names differ within ${mismatches.length} task(s), so SR is not comparable between those conversations: ${mismatches.map(mismatchText).join("; ")}.`
    : "";
}

/**
 * The action-level part of the "Options in effect" box: the two named rules
 * and the conversation-ratio reading, as set. The A.1 scoring rules themselves
 * are stated once, above Table 4.
 */
export function actionOptionsText({convRatio, rules = DEFAULT_ACTION_RULES}: {convRatio: ConvRatioRule; rules?: ActionRules}): string {
  // actionRulesText (shared with the CLI) starts with the A.1 rules; the box keeps only the named choices.
  const text = actionRulesText(rules);
  const choices = text.slice(Math.max(0, text.indexOf("Initiator rule")));
  return `Action level (Table 4). ${choices}. Conversation ratio (--conv-ratio): ${convRatio === "mean"
    ? "mean (default): the mean of per-task ratios initiated / demanded"
    : "pooled: Σ initiated / Σ demanded"}, over tasks other than asking for help.`;
}

/** The one-line reminder beside Table 4. */
export function actionCaption({convRatio, rules = DEFAULT_ACTION_RULES}: {convRatio: ConvRatioRule; rules?: ActionRules}): string {
  return `Initiator rule: ${rules.initiator}; help order: ${rules.helpOrder}; conversation ratio: ${convRatio} (see Options in effect). ` +
    `Conv. tasks: the tasks the ratio covers; no counts: tasks left out (no counts given, or none demanded).`;
}

/** The sentence about logged scores: how many runs carry one, and how many disagree with the rules in force. */
export function loggedScoresText(logged: number, disagreeing: number): string {
  return `${logged} simulation run(s) carry a score of their own; ${disagreeing} disagree with the rule applied to their observed outcome by more than ${SCORE_TOLERANCE}.`;
}
