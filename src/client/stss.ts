// Data for the STSS page: conversation rows, simulation runs and task
// definitions (decoded directly), and the sentences that say which options
// produced the numbers. Every number is computed by src/lib/stss.ts and
// src/lib/stss-action.ts, as the CLI's `report stss` and `report stss-action` do.

import {
  actionRulesText, DEFAULT_ACTION_RULES, HELP_ORDER_RULES, INITIATOR_RULES, SCORE_TOLERANCE, table4, type ActionRules, type ConvRatioRule, type RunRow, type Table4Row,
} from "../lib/stss-action.js";
import {
  APPOINTMENT_PARTNERS, byArchitectureThenModel, byTaskSummaryOrder, conditionFailureRows, conditionFailures, conditionSetMismatches, conditionSetVariants, LEVELS,
  mergeConditionSetVariants, mergeVerdictSets, mismatchesOf, mismatchText, offTargetConversations, runLabel, sameSet, sortConditionFailures, table3, taskSummaries,
  verdictSetLabel, verdictSets, type AppointmentPartners, type Category, type ConditionFailure, type ConditionSetMismatch, type ConditionSetVariants, type ConversationRow,
  type Level, type Table3Row, type TaskConversationSummary, type VerdictSet, type VerdictSetCount,
} from "../lib/stss.js";
import {decodeView, orderBy, type Row, type Tables} from "./tables.js";

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
  return {conversations, runs: stssRuns(tables), tasks: stssTasks(tables), verdictSets: verdictSets(conversations)};
}

/** The task definitions in the SQL's order. */
export const stssTasks = (tables: Tables<"stss_tasks">): TaskRow[] => orderBy(tables.stss_tasks as unknown as TaskRow[], ["category", "task_id"]);

/** What the page shows at one level for one verdict set and partner rule: the failing conditions by type and by task, and the tasks. */
export interface StssLevelView {
  failuresByType: ConditionFailure[];
  failuresByTask: ConditionFailure[];
  tasks: TaskConversationSummary[];
}

/** Everything the language-level sections show for one verdict set and partner rule. */
export interface StssLanguageView {
  t3: Table3Row[];
  warning: string;
  optionsText: string;
  levels: Record<Level, StssLevelView>;
}

/**
 * What the page shows for every value of its inputs over conversations and
 * runs, computed at build time by the library's own functions (bounded by
 * verdict sets, models, architectures, tasks and conditions): a change of
 * verdict set, partners, level or Table 4 rule is a lookup, and the page never
 * fetches the conversation rows (217k at ×100 the samples, 82 MB with the runs).
 */
export interface StssOptionViews {
  /** By languageKey: every verdict set (or none) × partner rule. */
  language: Record<string, StssLanguageView>;
  /** By actionKey: every conversation-ratio reading × initiator rule × help order. */
  action: Record<string, Table4Row[]>;
  /** "model · architecture" of every conversation, in row order: the drill-down's choices. */
  modelChoices: string[];
}

type LanguageChoice = {verdicts: VerdictSet | null; appointmentPartners: AppointmentPartners};
const languageKey = ({verdicts, appointmentPartners}: LanguageChoice) => JSON.stringify([verdicts?.rater ?? null, verdicts?.run_id ?? null, appointmentPartners]);
const actionKey = (convRatio: ConvRatioRule, rules: ActionRules) => `${convRatio}/${rules.initiator}/${rules.helpOrder}`;
const CONV_RATIOS: readonly ConvRatioRule[] = ["mean", "pooled"];

/** Every option view from the page's data, by the library's own functions. */
export function stssOptionViews(data: StssData): StssOptionViews {
  const rows = data.conversations;
  const defaultSet = data.verdictSets[0] ?? null;
  const sets: (VerdictSet | null)[] = data.verdictSets.length ? data.verdictSets.map((s) => ({rater: s.rater, run_id: s.run_id})) : [null];
  const language: Record<string, StssLanguageView> = {};
  for (const verdicts of sets) {
    for (const appointmentPartners of APPOINTMENT_PARTNERS) {
      const lang = {verdicts, appointmentPartners};
      const levels = {} as Record<Level, StssLevelView>;
      for (const level of LEVELS) {
        levels[level] = {
          failuresByType: conditionFailures(rows, {...lang, level, by: "type"}), failuresByTask: conditionFailures(rows, {...lang, level, by: "task"}),
          tasks: taskSummaries(rows, {...lang, level}),
        };
      }
      language[languageKey(lang)] = {t3: table3(rows, lang), warning: mismatchWarning(rows, lang), optionsText: languageOptionsText(rows, {...lang, defaultSet}), levels};
    }
  }
  return {language, action: actionViews(data.runs), modelChoices: Array.from(new Set(rows.map((r) => `${r.model} · ${r.architecture}`)))};
}

/** Table 4 for every conversation-ratio reading × initiator rule × help order. */
function actionViews(runs: readonly RunRow[]): Record<string, Table4Row[]> {
  const action: Record<string, Table4Row[]> = {};
  for (const convRatio of CONV_RATIOS) {
    for (const initiator of INITIATOR_RULES) {
      for (const helpOrder of HELP_ORDER_RULES) action[actionKey(convRatio, {initiator, helpOrder})] = table4(runs, {convRatio, rules: {initiator, helpOrder}});
    }
  }
  return action;
}

/** The language-level view for the page's choice; a choice the views lack is a stale build, said as such. */
export function languageLookup(views: StssOptionViews, lang: LanguageChoice): StssLanguageView {
  const found = views.language[languageKey(lang)];
  if (!found) throw new Error(`data/stss-first-view.bin: no view for verdicts ${lang.verdicts ? verdictSetLabel(lang.verdicts) : "none"}, partners ${lang.appointmentPartners}; rebuild the site`);
  return found;
}

/** Table 4 for the page's choice. */
export function table4Lookup(views: StssOptionViews, convRatio: ConvRatioRule, rules: ActionRules): Table4Row[] {
  const found = views.action[actionKey(convRatio, rules)];
  if (!found) throw new Error(`data/stss-first-view.bin: no Table 4 for ${actionKey(convRatio, rules)}; rebuild the site`);
  return found;
}

/**
 * What the first view draws (stss-first-view.bin), bounded by models,
 * architectures and verdict sets: Table 3 under the default options (the set
 * with the most verdicts, target partners), the verdict sets for the input,
 * how many rows the store holds, and the views for every other choice.
 */
export interface StssFirstView {
  conversations: number;
  runs: number;
  verdictSets: VerdictSetCount[];
  appointmentPartners: AppointmentPartners;
  t3: Table3Row[];
  views: StssOptionViews;
}

/** The first view from the page's data, computed at build time by the same functions the page runs. */
export function stssFirstView(data: StssData): StssFirstView {
  const set = data.verdictSets[0] ?? null;
  const lang = {verdicts: set === null ? null : {rater: set.rater, run_id: set.run_id}, appointmentPartners: "target" as const};
  const views = stssOptionViews(data);
  return {conversations: data.conversations.length, runs: data.runs.length, verdictSets: data.verdictSets, appointmentPartners: lang.appointmentPartners,
    t3: languageLookup(views, lang).t3, views};
}

/** The order stssData gives the conversation rows. */
const CONVERSATION_ORDER = ["model", "architecture", "task_id", "conversation_id", "level", "rater", "run_id"] as const;

type LanguageParts = {
  lang: LanguageChoice;
  t3: Table3Row[];
  variants: ConditionSetVariants;
  levels: Record<Level, {failuresByType: ConditionFailure[]; failuresByTask: ConditionFailure[]; tasks: TaskConversationSummary[]}>;
};

/**
 * stssFirstView, the same view to the byte, from the conversation rows read
 * one (model, architecture) at a time (`parts` gives them in that order, each
 * in the result's order; no conversation run in two parts), so the build holds
 * one part's rows at a time, not the store's (issue 18: 1.8 GB at ×100 the
 * samples). Every table over conversations groups by model and architecture
 * (or adds over them), so each part's rows give that part's rows of each
 * table; the page's sorts then order the joined lists as they ordered one.
 */
export async function stssFirstViewByParts(parts: () => AsyncIterable<Row[]>, runs: RunRow[]): Promise<StssFirstView> {
  // First pass: the verdict sets, for which every table is made; the rows and the conversations left out.
  const setsByPart: VerdictSetCount[][] = [];
  let conversations = 0;
  let offTarget = 0;
  for await (const part of parts()) {
    const rows = orderBy(part as unknown as ConversationRow[], CONVERSATION_ORDER);
    setsByPart.push(verdictSets(rows));
    conversations += rows.length;
    offTarget += offTargetConversations(rows, "target");
  }
  const sets = mergeVerdictSets(setsByPart);
  const defaultSet = sets[0] ?? null;
  const choices: (VerdictSet | null)[] = sets.length ? sets.map((s) => ({rater: s.rater, run_id: s.run_id})) : [null];
  const languages: LanguageParts[] = [];
  for (const verdicts of choices) {
    for (const appointmentPartners of APPOINTMENT_PARTNERS) {
      const levels = {} as LanguageParts["levels"];
      for (const level of LEVELS) levels[level] = {failuresByType: [], failuresByTask: [], tasks: []};
      languages.push({lang: {verdicts, appointmentPartners}, t3: [], variants: new Map(), levels});
    }
  }
  // Second pass: each part's rows of every table, appended.
  const modelChoices = new Set<string>();
  for await (const part of parts()) {
    const rows = orderBy(part as unknown as ConversationRow[], CONVERSATION_ORDER);
    for (const r of rows) modelChoices.add(`${r.model} · ${r.architecture}`);
    for (const {lang, t3, variants, levels} of languages) {
      for (const level of LEVELS) {
        appendAll(levels[level].failuresByType, conditionFailureRows(rows, {...lang, level, by: "type"}));
        appendAll(levels[level].failuresByTask, conditionFailureRows(rows, {...lang, level, by: "task"}));
        appendAll(levels[level].tasks, taskSummaries(rows, {...lang, level}));
      }
      appendAll(t3, table3(rows, lang));
      if (lang.verdicts) mergeConditionSetVariants(variants, conditionSetVariants(rows, lang));
    }
  }
  const language: Record<string, StssLanguageView> = {};
  for (const {lang, t3, variants, levels} of languages) {
    const views = {} as Record<Level, StssLevelView>;
    for (const level of LEVELS) {
      const l = levels[level];
      views[level] = {failuresByType: sortConditionFailures(l.failuresByType), failuresByTask: sortConditionFailures(l.failuresByTask), tasks: l.tasks.sort(byTaskSummaryOrder)};
    }
    language[languageKey(lang)] = {t3: byArchitectureThenModel(t3), warning: mismatchWarningOf(lang.verdicts ? mismatchesOf(variants) : []),
      optionsText: languageOptionsTextOf(sets, offTarget, {...lang, defaultSet}), levels: views};
  }
  const views: StssOptionViews = {language, action: actionViews(runs), modelChoices: Array.from(modelChoices)};
  const lang = {verdicts: defaultSet === null ? null : {rater: defaultSet.rater, run_id: defaultSet.run_id}, appointmentPartners: "target" as const};
  return {conversations, runs: runs.length, verdictSets: sets, appointmentPartners: lang.appointmentPartners, t3: languageLookup(views, lang).t3, views};
}

function appendAll<T>(into: T[], rows: readonly T[]): void {
  for (const r of rows) into.push(r);
}

export const readStssFirstView = (tables: Tables<"stss_first">): StssFirstView => decodeView<StssFirstView>(tables.stss_first, "data/stss-first-view.bin");

/** The simulation runs in the SQL's order: what the page reads after its first view (the logged scores against the rules). */
export const stssRuns = (tables: Tables<"stss_runs">): RunRow[] => orderBy(tables.stss_runs as unknown as RunRow[], ["model", "architecture", "task_id", "run_label"]);

/**
 * The language-level part of the page's one "Options in effect" box: which
 * verdict set and partner rule produce Table 3 and the failing conditions, and
 * what they leave out. Definitions (SR, GCSR, micro, macro) live in Table 3's caption.
 */
export function languageOptionsText(rows: readonly ConversationRow[], options:
  {verdicts: VerdictSet | null; defaultSet: VerdictSet | null; appointmentPartners: AppointmentPartners}): string {
  return languageOptionsTextOf(verdictSets(rows), offTargetConversations(rows, "target"), options);
}

/** languageOptionsText from the rows' verdict sets and their appointment conversations with someone other than the target. */
export function languageOptionsTextOf(sets: readonly VerdictSetCount[], offTarget: number, {verdicts, defaultSet, appointmentPartners}:
  {verdicts: VerdictSet | null; defaultSet: VerdictSet | null; appointmentPartners: AppointmentPartners}): string {
  const who = verdicts === null ? "none (no goal-condition verdicts)"
    : `${verdicts.rater}; run (--run-id): ${runLabel(verdicts.run_id)}${sameSet(verdicts, defaultSet) ? " (default: the rater and run with the most verdicts)" : ""}`;
  const others = sets.filter((s) => !sameSet(s, verdicts));
  const partners = appointmentPartners === "target"
    ? `target (default; §3.2 counts only conversations between the performer and the target person): ${offTarget} appointment conversation(s) with someone else left out`
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
  return mismatchWarningOf(options.verdicts ? conditionSetMismatches(rows, options) : []);
}

/** mismatchWarning from the mismatches themselves. */
export function mismatchWarningOf(mismatches: readonly ConditionSetMismatch[]): string {
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
