// STSS language level (METRICS.md § STSS; STSS §3.1 Table 2, §3.2 Eq. 1–2):
// the five task types, the mapping of the benchmark's own task types onto
// them, goal-condition scores of a conversation (SR, GCSR), and their micro
// and macro averages over tasks.

/** The paper's five task types (Table 2), in its order. */
export type Category = "public_activity" | "appointment" | "inviting_companions" | "online_activity" | "asking_for_help";

export interface CategoryInfo {
  key: Category;
  name: string;
  /** Table 4's column heading. */
  abbrev: string;
  time: string;
  location: string;
  target: boolean;
  metric: string;
}

export const CATEGORIES: readonly CategoryInfo[] = [
  {key: "public_activity", name: "Public activity", abbrev: "Pub. Act.", time: "specified", location: "specified", target: false, metric: "#participants"},
  {key: "appointment", name: "Appointment", abbrev: "Appo.", time: "same", location: "same", target: true, metric: "goal achievement"},
  {key: "inviting_companions", name: "Inviting companions", abbrev: "Inv. Com.", time: "same", location: "specified", target: false, metric: "#participants"},
  {key: "online_activity", name: "Online activity", abbrev: "Online Act.", time: "specified", location: "unspecified", target: false, metric: "#participants"},
  {key: "asking_for_help", name: "Asking for help", abbrev: "Help", time: "unspecified", location: "specified", target: false, metric: "goal achievement"},
];

export const categoryInfo = (c: Category): CategoryInfo => CATEGORIES.find((x) => x.key === c)!;

/**
 * The task types of the benchmark's task files (environment/data/task_0905)
 * onto the paper's five. A party is a public activity (the paper's own
 * example of one is a Valentine's Day party): that is how Table 2's 10
 * public-activity templates arise from 8 `Public Activity` and 2 `Party` tasks.
 */
export const TASK_TYPE_MAP: readonly {sourceType: string; category: Category; why: string}[] = [
  {sourceType: "Public Activity", category: "public_activity", why: "fixed time and place, invite as many as possible"},
  {sourceType: "Party", category: "public_activity", why: "a party at a fixed time and place (the paper's example of a public activity)"},
  {sourceType: "Personal appointment", category: "appointment", why: "a named target person; time and place negotiated"},
  {sourceType: "Find partner", category: "inviting_companions", why: "companions for an activity at a fixed place, time negotiated"},
  {sourceType: "Online meeting", category: "online_activity", why: "fixed time, no physical place"},
  {sourceType: "Ask for others", category: "asking_for_help", why: "others do a sequence of errands at fixed places"},
];

/** The paper's type of a task file's `task_type`, or undefined when it is not one of the six known. */
export function categoryOf(sourceType: string): Category | undefined {
  const t = sourceType.trim().toLowerCase();
  return TASK_TYPE_MAP.find((m) => m.sourceType.toLowerCase() === t)?.category;
}

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The agent architectures of Table 3. */
export const ARCHITECTURES = ["GA", "GA+TDP"] as const;
export type Architecture = (typeof ARCHITECTURES)[number];

/** Where goal conditions are judged: on the conversation, or on the listener's summary of it. */
export const LEVELS = ["conversation", "summary"] as const;
export type Level = (typeof LEVELS)[number];

export type ConversationMetric = "SR" | "GCSR";
export type Average = "micro" | "macro";

/** The ratings dimension of a goal condition at a level: `<level>:<condition>`. */
export const conditionDimension = (level: Level, condition: string): string => `${level}:${condition}`;

/**
 * Goal conditions the workbench proposes per task type (for the samples and
 * for an LLM judge). The paper names some (invitation, time, location) but
 * does not publish its lists; logs may use any condition names.
 */
export const SUGGESTED_CONDITIONS: Record<Category, readonly {name: string; label: string}[]> = {
  public_activity: [
    {name: "invited", label: "the partner is invited"},
    {name: "time_conveyed", label: "the time is conveyed"},
    {name: "location_conveyed", label: "the location is conveyed"},
  ],
  appointment: [
    {name: "purpose_conveyed", label: "the purpose of the meeting is conveyed"},
    {name: "time_agreed", label: "a time is agreed"},
    {name: "location_agreed", label: "a place is agreed"},
  ],
  inviting_companions: [
    {name: "invited", label: "the partner is invited"},
    {name: "location_conveyed", label: "the location is conveyed"},
    {name: "time_agreed", label: "a time is agreed"},
  ],
  online_activity: [
    {name: "invited", label: "the partner is invited"},
    {name: "time_conveyed", label: "the time is conveyed"},
    {name: "activity_conveyed", label: "what the online activity is, and that it is online"},
  ],
  asking_for_help: [
    {name: "help_requested", label: "help is asked for"},
    {name: "first_errand_conveyed", label: "the first errand and its place are conveyed"},
    {name: "second_errand_conveyed", label: "the second errand and its place are conveyed"},
  ],
};

/** s_c of one conversation (§3.2): SR is 1 when every condition holds, else 0; GCSR is the share that hold. */
export function conversationScore(held: number, total: number, metric: ConversationMetric): number {
  if (!(total > 0)) throw new Error("a conversation needs at least one judged goal condition");
  if (held < 0 || held > total) throw new Error(`${held} conditions held out of ${total}`);
  return metric === "SR" ? (held === total ? 1 : 0) : held / total;
}

/** A conversation's score and the task it belongs to. */
export interface TaskScore {
  task: string;
  score: number;
}

/** Eq. 1: Σ_t Σ_c s_c / Σ_t |C_t|, every conversation weighing the same. NaN without conversations. */
export function microAverage(scores: readonly TaskScore[]): number {
  return scores.length ? scores.reduce((s, c) => s + c.score, 0) / scores.length : NaN;
}

/** Eq. 2: the mean over tasks of each task's mean s_c, every task weighing the same. NaN without conversations. */
export function macroAverage(scores: readonly TaskScore[]): number {
  const byTask = new Map<string, {sum: number; n: number}>();
  for (const c of scores) {
    const t = byTask.get(c.task) ?? {sum: 0, n: 0};
    t.sum += c.score;
    t.n++;
    byTask.set(c.task, t);
  }
  if (!byTask.size) return NaN;
  let total = 0;
  for (const t of byTask.values()) total += t.sum / t.n;
  return total / byTask.size;
}

/**
 * One row of the conversation query (loaders/queries/stss.ts): one
 * conversation run at one level by one verdict set (a rater in one judging
 * run), with how many conditions that set judged and how many held, and the
 * names of those that failed. A conversation nobody judged has level, rater,
 * run and the counts null.
 */
export interface ConversationRow {
  episode_id: string;
  model: string;
  architecture: string;
  task_id: string;
  category: Category;
  conversation_id: string;
  partner: string;
  /** An appointment conversation not between the task's performer and a target person (§3.2 leaves those out). */
  off_target: boolean;
  level: Level | null;
  rater: string | null;
  /** The judging run: '' for verdicts imported from files, else the judge run's id. */
  run_id: string | null;
  /** Verdict rows, and distinct conditions judged: more rows than conditions means a condition was judged twice in one run. */
  n_verdicts: number | null;
  n_conditions: number | null;
  n_held: number | null;
  /** Names of the conditions the set judged, and of those that did not hold. */
  conditions: string[] | null;
  failed: string[] | null;
}

/**
 * The unit whose verdicts are combined into a number: one rater in one
 * judging run. Two runs of one judge model (a rerun with an edited template,
 * another --run-id, or a judge named like the imported rater) are two sets;
 * combining them would make SR mean "held in every run".
 */
export interface VerdictSet {
  rater: string;
  /** '' for verdicts imported from files. */
  run_id: string;
}

/** The run id of verdicts imported from files, and the word the page and CLI use for it (`--run-id imported`). */
export const IMPORTED_RUN = "";
export const IMPORTED_RUN_LABEL = "imported";

/** How page and CLI name a run. */
export const runLabel = (runId: string): string => (runId === IMPORTED_RUN ? IMPORTED_RUN_LABEL : runId);

/** A verdict set in words: `gpt-35-turbo · imported`. */
export const verdictSetLabel = (set: VerdictSet): string => `${set.rater} · ${runLabel(set.run_id)}`;

export const sameSet = (a: VerdictSet | null, b: VerdictSet | null): boolean => a !== null && b !== null && a.rater === b.rater && a.run_id === b.run_id;

export interface VerdictSetCount extends VerdictSet {
  /** Verdict rows of the set (each condition judged once per conversation and level). */
  verdicts: number;
  conversations: number;
}

/**
 * Every verdict set in the rows, the default first: the set with the most
 * verdicts; ties go to the rater first by name, then to imported verdicts,
 * then to the run first by id.
 */
export function verdictSets(rows: readonly ConversationRow[]): VerdictSetCount[] {
  const sets = new Map<string, VerdictSetCount & {runs: Set<string>}>();
  for (const r of rows) {
    if (r.rater === null || r.run_id === null) continue;
    const k = `${r.rater}\u0000${r.run_id}`;
    const s = sets.get(k) ?? {rater: r.rater, run_id: r.run_id, verdicts: 0, conversations: 0, runs: new Set<string>()};
    s.verdicts += r.n_verdicts ?? 0;
    s.runs.add(r.episode_id);
    sets.set(k, s);
  }
  return [...sets.values()]
    .map(({runs, ...s}) => ({...s, conversations: runs.size}))
    .sort(byVerdictSetOrder);
}

/** verdictSets' order: most verdicts first, then rater, then run. */
const byVerdictSetOrder = (a: VerdictSetCount, b: VerdictSetCount): number => b.verdicts - a.verdicts || text(a.rater, b.rater) || text(a.run_id, b.run_id);

/**
 * verdictSets of all rows from verdictSets of parts of them, where no
 * conversation run has rows in two parts (its verdicts and its one count add).
 */
export function mergeVerdictSets(parts: readonly (readonly VerdictSetCount[])[]): VerdictSetCount[] {
  const sets = new Map<string, VerdictSetCount>();
  for (const part of parts) {
    for (const p of part) {
      const k = `${p.rater}\u0000${p.run_id}`;
      const s = sets.get(k);
      if (s) {
        s.verdicts += p.verdicts;
        s.conversations += p.conversations;
      } else sets.set(k, {...p});
    }
  }
  return Array.from(sets.values()).sort(byVerdictSetOrder);
}

/** The default verdict set (see verdictSets), as page and CLI choose it; null without verdicts. */
export function defaultVerdictSet(rows: readonly ConversationRow[]): VerdictSet | null {
  const [first] = verdictSets(rows);
  return first ? {rater: first.rater, run_id: first.run_id} : null;
}

/**
 * Which appointment conversations count (STSS §3.2: "only conversations
 * between the task performer and the target person are incorporated").
 * `target` (default) leaves the others out and says how many; `all` keeps them.
 */
export type AppointmentPartners = "target" | "all";
export const APPOINTMENT_PARTNERS: readonly AppointmentPartners[] = ["target", "all"];

export interface LanguageOptions {
  verdicts: VerdictSet | null;
  appointmentPartners?: AppointmentPartners;
}

/** Conversation rows that count under the appointment-partner rule. */
const counted = (rows: readonly ConversationRow[], partners: AppointmentPartners = "target") =>
  partners === "all" ? rows : rows.filter((r) => !r.off_target);

/** How many appointment conversation runs the rule leaves out (0 under `all`). */
export function offTargetConversations(rows: readonly ConversationRow[], partners: AppointmentPartners = "target"): number {
  return partners === "all" ? 0 : new Set(rows.filter((r) => r.off_target).map((r) => r.episode_id)).size;
}

/**
 * Only the chosen set's verdicts: one row per (conversation run, level).
 * A set that judged a condition twice on one conversation cannot be scored
 * (which verdict counts?): an error naming the conversation and run.
 */
function judgedBy(rows: readonly ConversationRow[], {verdicts, appointmentPartners}: LanguageOptions): ConversationRow[] {
  const mine = counted(rows, appointmentPartners).filter((r) => verdicts !== null && r.rater === verdicts.rater && r.run_id === verdicts.run_id &&
    r.level !== null && (r.n_conditions ?? 0) > 0);
  const twice = mine.find((r) => (r.n_verdicts ?? 0) > (r.n_conditions ?? 0));
  if (twice) {
    throw new Error(`conversation ${twice.episode_id} has ${twice.n_verdicts} ${twice.level}-level verdicts on ${twice.n_conditions} conditions by ` +
      `${verdictSetLabel(verdicts!)}: a condition was judged twice in one run, so its score is undefined; remove the duplicate ratings or judge into a new --run-id`);
  }
  return mine;
}

export interface ConditionSetMismatch {
  task_id: string;
  level: Level;
  /** Each distinct list of condition names the set used in the task at the level, with how many conversations used it; most used first. */
  variants: {conditions: string[]; conversations: number}[];
}

/**
 * Tasks where the chosen set judged conversations on different lists of
 * conditions at one level: a conversation judged on fewer conditions can
 * reach SR = 1 more easily, so its scores are not comparable with its
 * siblings'. Page and CLI warn; the numbers still use what was judged.
 */
export function conditionSetMismatches(rows: readonly ConversationRow[], options: LanguageOptions): ConditionSetMismatch[] {
  return mismatchesOf(conditionSetVariants(rows, options));
}

/** Per "task_id NUL level", each list of condition names (joined by commas) the chosen set judged on, with its first list and its conversations: conditionSetMismatches before it picks the tasks with two or more. */
export type ConditionSetVariants = Map<string, Map<string, {conditions: string[]; conversations: number}>>;

export function conditionSetVariants(rows: readonly ConversationRow[], options: LanguageOptions): ConditionSetVariants {
  const byTask: ConditionSetVariants = new Map();
  for (const r of judgedBy(rows, options)) {
    const k = `${r.task_id}\u0000${r.level}`;
    const variants = byTask.get(k) ?? new Map();
    const names = r.conditions ?? [];
    const v = variants.get(names.join(",")) ?? {conditions: names, conversations: 0};
    v.conversations++;
    variants.set(names.join(","), v);
    byTask.set(k, variants);
  }
  return byTask;
}

/** Adds `part` (conditionSetVariants of rows after those `into` counted) into `into`, as if counted in one pass. */
export function mergeConditionSetVariants(into: ConditionSetVariants, part: ConditionSetVariants): void {
  for (const [k, variants] of part) {
    const mine = into.get(k);
    if (!mine) {
      into.set(k, variants);
      continue;
    }
    for (const [names, v] of variants) {
      const known = mine.get(names);
      if (known) known.conversations += v.conversations;
      else mine.set(names, v);
    }
  }
}

/** The mismatches in conditionSetVariants: tasks and levels judged on two or more lists, in conditionSetMismatches' order. */
export function mismatchesOf(byTask: ConditionSetVariants): ConditionSetMismatch[] {
  const out: ConditionSetMismatch[] = [];
  for (const [k, variants] of byTask) {
    if (variants.size < 2) continue;
    const [task_id, level] = k.split("\u0000") as [string, Level];
    out.push({task_id, level, variants: [...variants.values()].sort((a, b) => b.conversations - a.conversations || text(a.conditions.join(), b.conditions.join()))});
  }
  return out.sort((a, b) => text(a.task_id, b.task_id) || text(a.level, b.level));
}

/** A mismatch in words, for notes. */
export const mismatchText = (m: ConditionSetMismatch): string =>
  `${m.task_id} (${m.level} level): ${m.variants.map((v) => `[${v.conditions.join(", ")}] in ${v.conversations}`).join(" vs ")}`;

/** Table 3's eight cells: level × metric × average. */
export const TABLE3_CELLS: readonly {level: Level; metric: ConversationMetric; average: Average; key: string}[] = LEVELS.flatMap((level) =>
  (["SR", "GCSR"] as const).flatMap((metric) => (["micro", "macro"] as const).map((average) => ({level, metric, average, key: `${level}_${metric.toLowerCase()}_${average}`}))));

export interface Table3Row {
  model: string;
  architecture: string;
  /** Conversation runs of this (model, architecture), judged or not (appointment conversations the partner rule leaves out are not counted). */
  conversations: number;
  tasks: number;
  /** Conversations with verdicts by the verdict set, per level: the n each level's cells average over. */
  judged: Record<Level, number>;
  /** Keyed by TABLE3_CELLS' key, e.g. `conversation_sr_micro`. */
  cells: Record<string, number>;
}

const architectureOrder = (a: string) => {
  const i = (ARCHITECTURES as readonly string[]).indexOf(a);
  return i < 0 ? ARCHITECTURES.length : i;
};

/** Table 3's row order: by architecture (GA first, then GA + TDP, then any other), then model. */
export const compareRows = (a: {model: string; architecture: string}, b: {model: string; architecture: string}): number =>
  architectureOrder(a.architecture) - architectureOrder(b.architecture) || text(a.architecture, b.architecture) || text(a.model, b.model);

/** Rows sorted as Table 3. */
export const byArchitectureThenModel = <T extends {model: string; architecture: string}>(rows: T[]): T[] => rows.sort(compareRows);

/** Table 3: per (model, architecture), SR and GCSR at both levels, micro and macro, from one verdict set. */
export function table3(rows: readonly ConversationRow[], options: LanguageOptions & {models?: readonly string[]}): Table3Row[] {
  const {models} = options;
  const keep = (r: ConversationRow) => !models?.length || models.includes(r.model);
  const groups = new Map<string, {model: string; architecture: string; runs: Set<string>; tasks: Set<string>}>();
  for (const r of counted(rows, options.appointmentPartners)) {
    if (!keep(r)) continue;
    const k = `${r.model}\u0000${r.architecture}`;
    const g = groups.get(k) ?? {model: r.model, architecture: r.architecture, runs: new Set(), tasks: new Set()};
    g.runs.add(r.episode_id);
    g.tasks.add(r.task_id);
    groups.set(k, g);
  }
  const judged = judgedBy(rows, options).filter(keep);
  const out: Table3Row[] = [];
  for (const g of groups.values()) {
    const mine = judged.filter((r) => r.model === g.model && r.architecture === g.architecture);
    const cells: Record<string, number> = {};
    for (const c of TABLE3_CELLS) {
      const scores = mine.filter((r) => r.level === c.level).map((r) => ({task: r.task_id, score: conversationScore(r.n_held!, r.n_conditions!, c.metric)}));
      cells[c.key] = c.average === "micro" ? microAverage(scores) : macroAverage(scores);
    }
    const count = (level: Level) => mine.filter((r) => r.level === level).length;
    out.push({model: g.model, architecture: g.architecture, conversations: g.runs.size, tasks: g.tasks.size,
      judged: {conversation: count("conversation"), summary: count("summary")}, cells});
  }
  return byArchitectureThenModel(out);
}

export interface ConditionFailure {
  model: string;
  architecture: string;
  /** The task id or the task type, as grouped. */
  group: string;
  condition: string;
  /** Conversations of the group judged at the level (each judged condition is counted in `judged`). */
  conversations: number;
  judged: number;
  failed: number;
  failRate: number;
}

/**
 * Which goal conditions fail, per (model, architecture, task or task type), at
 * one level, by one verdict set: how many conversations judged each
 * condition and how many failed it, most failed first. A condition's `judged`
 * is the number of conversations whose verdicts name it.
 */
export function conditionFailures(rows: readonly ConversationRow[], options: LanguageOptions & {level: Level; by: "task" | "type"}): ConditionFailure[] {
  return sortConditionFailures(conditionFailureRows(rows, options));
}

/** conditionFailures' order: highest fail rate first, then most failed, then condition. */
export const sortConditionFailures = (rows: ConditionFailure[]): ConditionFailure[] =>
  rows.sort((a, b) => b.failRate - a.failRate || b.failed - a.failed || (a.condition < b.condition ? -1 : 1));

/**
 * conditionFailures before its sort, in the order the rows first name each
 * (model, architecture, group, condition): for rows read in parts by (model,
 * architecture), the parts' lists one after the other are this list.
 */
export function conditionFailureRows(rows: readonly ConversationRow[], options: LanguageOptions & {level: Level; by: "task" | "type"}): ConditionFailure[] {
  const {level, by} = options;
  const groups = new Map<string, ConditionFailure>();
  const convs = new Map<string, Set<string>>();
  for (const r of judgedBy(rows, options)) {
    if (r.level !== level) continue;
    const group = by === "task" ? r.task_id : r.category;
    const gk = `${r.model}\u0000${r.architecture}\u0000${group}`;
    convs.set(gk, (convs.get(gk) ?? new Set()).add(r.episode_id));
    const names = r.conditions ?? [];
    const failed = new Set(r.failed ?? []);
    for (const condition of names) {
      const k = `${gk}\u0000${condition}`;
      const f = groups.get(k) ?? {model: r.model, architecture: r.architecture, group, condition, conversations: 0, judged: 0, failed: 0, failRate: 0};
      f.judged++;
      if (failed.has(condition)) f.failed++;
      groups.set(k, f);
    }
  }
  return [...groups.values()].map((f) => {
    const gk = `${f.model}\u0000${f.architecture}\u0000${f.group}`;
    return {...f, conversations: convs.get(gk)?.size ?? 0, failRate: f.judged ? f.failed / f.judged : NaN};
  });
}

export interface TaskConversationSummary {
  model: string;
  architecture: string;
  task_id: string;
  category: Category;
  /** Conversation runs of the task, judged or not. */
  conversations: number;
  /** Judged at the level by the verdict set. */
  judged: number;
  sr: number;
  gcsr: number;
}

/** Per task: how many conversations, and the task's mean SR and GCSR at one level (the terms of Eq. 2). */
export function taskSummaries(rows: readonly ConversationRow[], options: LanguageOptions & {level: Level}): TaskConversationSummary[] {
  const {level} = options;
  const judged = new Set(judgedBy(rows, options).filter((r) => r.level === level));
  const all = new Map<string, TaskConversationSummary & {runs: Set<string>; srSum: number; gcsrSum: number}>();
  for (const r of counted(rows, options.appointmentPartners)) {
    const k = `${r.model}\u0000${r.architecture}\u0000${r.task_id}`;
    const t = all.get(k) ?? {model: r.model, architecture: r.architecture, task_id: r.task_id, category: r.category, conversations: 0, judged: 0, sr: NaN, gcsr: NaN,
      runs: new Set(), srSum: 0, gcsrSum: 0};
    t.runs.add(r.episode_id);
    if (judged.has(r)) {
      t.judged++;
      t.srSum += conversationScore(r.n_held!, r.n_conditions!, "SR");
      t.gcsrSum += conversationScore(r.n_held!, r.n_conditions!, "GCSR");
    }
    all.set(k, t);
  }
  const out = [...all.values()].map(({runs, srSum, gcsrSum, ...t}) =>
    ({...t, conversations: runs.size, sr: t.judged ? srSum / t.judged : NaN, gcsr: t.judged ? gcsrSum / t.judged : NaN}));
  return out.sort(byTaskSummaryOrder);
}

/** taskSummaries' order: Table 3's rows, then task id (one row per key, so parts' lists sort into the same list). */
export const byTaskSummaryOrder = (a: TaskConversationSummary, b: TaskConversationSummary): number => compareRows(a, b) || text(a.task_id, b.task_id);
