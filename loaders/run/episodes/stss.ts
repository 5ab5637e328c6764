// `sociometer run stss` (STSS §3.1–3.2, language level): the tested model plays
// a task's performer, with (GA+TDP) or without (GA) a planning step before it
// talks; a partner model plays each person the task needs, one conversation
// each, and then writes its own summary of the conversation. Conversations are
// written in the `stss` format without verdicts: `judge stss-conditions` gives those.

import {categoryInfo, SUGGESTED_CONDITIONS, type Category} from "../../../src/lib/stss.js";
import {expectedParticipants} from "../../../src/lib/stss-action.js";
import {rows, type Store} from "../../store/db.js";
import type {Chat, ChatMessage} from "../chat.js";
import {fill, loadTemplate, type Template} from "../template.js";
import {askValidated, jsonObjectOf, type Attempt, type Check} from "./answer.js";
import {DEFAULT_MAX_STALE_TURNS, type EndReason} from "./play.js";
import {episodeId, errorMessage, mapPool, sampleOf, seededOrder, type EndpointFailure} from "./support.js";

export const STSS_ARCHITECTURES = {ga: "GA", "ga+tdp": "GA+TDP"} as const;
export type StssArchitecture = (typeof STSS_ARCHITECTURES)[keyof typeof STSS_ARCHITECTURES];

/** The four prompts of a run, loaded once; their versions are part of every cache key. */
export interface StssTemplates {
  plan: Template;
  performer: Template;
  partner: Template;
  summary: Template;
}

export function loadStssTemplates(): StssTemplates {
  return {
    plan: loadTemplate("stss-plan", ["performer", "task", "answer_format"]),
    performer: loadTemplate("stss-performer", ["performer", "partner", "task", "plan", "max_turns", "transcript", "turn"]),
    partner: loadTemplate("stss-partner", ["performer", "partner", "town", "max_turns", "transcript", "turn"]),
    summary: loadTemplate("stss-summary", ["performer", "partner", "transcript"]),
  };
}

const templateId = (name: string, t: Template) => `${name}/${t.version}`;

export interface StssSubGoal {
  keyword: string;
  start_time: string | null;
  duration_in_minutes: number | null;
  location: string | null;
}

/** A task as `stss-tasks` stored it (loaders/import/stss-tasks.ts). */
export interface StssTask {
  task_id: string;
  category: Category;
  goal: string | null;
  description: string | null;
  performer: string;
  targets: string[] | null;
  target_num: number | null;
  characters: string[] | null;
  goals: StssSubGoal[];
}

/** The imported tasks, by task id, optionally only `taskIds`; an unknown id is an error naming it. */
export async function stssTasksFromStore(store: Store, taskIds?: readonly string[]): Promise<StssTask[]> {
  const tasks = await rows<Omit<StssTask, "goals"> & {episode_id: string}>(store.conn,
    "SELECT episode_id, task_id, category, goal, description, performer, targets, target_num, characters FROM stss_tasks ORDER BY task_id");
  const goals = await rows<StssSubGoal & {episode_id: string}>(store.conn,
    "SELECT episode_id, keyword, start_time, duration_in_minutes, location FROM stss_task_goals ORDER BY episode_id, ord");
  const byEpisode = new Map<string, StssSubGoal[]>();
  for (const g of goals) {
    const list = byEpisode.get(g.episode_id) ?? [];
    list.push({keyword: g.keyword, start_time: g.start_time, duration_in_minutes: g.duration_in_minutes, location: g.location});
    byEpisode.set(g.episode_id, list);
  }
  const all = tasks.map(({episode_id, ...t}) => ({...t, goals: byEpisode.get(episode_id) ?? []}));
  if (!taskIds?.length) return all;
  const known = new Set(all.map((t) => t.task_id));
  const unknown = taskIds.filter((id) => !known.has(id));
  if (unknown.length) throw new Error(`no STSS task ${unknown.map((u) => JSON.stringify(u)).join(", ")} in the store; import its tasks file first (sociometer import stss-tasks FILE)`);
  const wanted = new Set(taskIds);
  return all.filter((t) => wanted.has(t.task_id));
}

/**
 * The people a task needs the performer to talk to. An appointment needs its
 * target persons (§3.2 keeps only those conversations). A collective task needs
 * as many as Appendix A.1 expects to attend (half, or a third for inviting
 * companions, of the background characters, rounded up); asking for help needs
 * one helper (or the task's target_num). Who they are among the background
 * characters is a seeded draw, so adding characters keeps the earlier picks' order.
 */
export function requiredPartners(task: StssTask, seed: string | number): string[] {
  if (task.category === "appointment") {
    const targets = (task.targets ?? []).filter((t) => t !== task.performer);
    if (!targets.length) throw new Error(`STSS task ${task.task_id}: an appointment needs a target person (task.target), and it lists none`);
    return targets;
  }
  const background = (task.characters ?? []).filter((c) => c !== task.performer);
  if (!background.length) throw new Error(`STSS task ${task.task_id}: no characters besides the performer (all_chars), so nobody to talk to`);
  const wanted = task.category === "asking_for_help" ? Math.max(1, task.target_num ?? 1) : expectedParticipants(task.category, background.length);
  return seededOrder(background, seed, (c) => `${task.task_id}\u0000${c}`).slice(0, Math.min(wanted, background.length));
}

// What an unset time or place means by task type (Table 2): to be negotiated ("same"), or none at all (online).
const UNSET_TIME: Record<string, string> = {same: "to be agreed with them"};
const UNSET_PLACE: Record<string, string> = {same: "to be agreed with them", unspecified: "online, no place"};

/** The task as the performer (and the planning step) read it: the goal, its details, each sub-goal's what, when and where. */
export function taskText(task: StssTask): string {
  const info = categoryInfo(task.category);
  const lines = [`Goal: ${task.goal ?? "(not given)"}`];
  if (task.description) lines.push(`Details: ${task.description}`);
  if (task.targets?.length) lines.push(`The person or people this is with: ${task.targets.join(", ")}`);
  for (const [i, g] of task.goals.entries()) {
    const parts = [g.keyword, `when: ${g.start_time ?? UNSET_TIME[info.time] ?? "not fixed"}`, `where: ${g.location ?? UNSET_PLACE[info.location] ?? "not fixed"}`];
    if (g.duration_in_minutes) parts.push(`about ${g.duration_in_minutes} minutes`);
    lines.push(`${task.goals.length > 1 ? `Step ${i + 1}` : "Activity"}: ${parts.join("; ")}`);
  }
  return lines.join("\n");
}

/** The planning step's answer (GA+TDP). */
export interface TaskPlan {
  subgoals: string[];
  checklist: string[];
}

const PLAN_FORMAT = `{"subgoals": ["<step>", "..."], "checklist": ["<point>", "..."]}`;

function stringList(v: unknown, field: string, min: number, max: number): {value: string[]} | {problem: string} {
  if (!Array.isArray(v)) return {problem: `"${field}" must be a list of strings`};
  const items = v.map((x) => (typeof x === "string" ? x.trim() : ""));
  if (items.some((x) => !x)) return {problem: `every entry of "${field}" must be non-empty text`};
  if (items.length < min || items.length > max) return {problem: `"${field}" must have ${min} to ${max} entries, not ${items.length}`};
  return {value: items};
}

/** A plan: 3–5 sub-goals and 1–5 checklist points, all text. */
export const checkPlan: Check<TaskPlan> = (text) => {
  const parsed = jsonObjectOf(text);
  if ("problem" in parsed) return parsed;
  const subgoals = stringList(parsed.value.subgoals, "subgoals", 3, 5);
  if ("problem" in subgoals) return subgoals;
  const checklist = stringList(parsed.value.checklist, "checklist", 1, 5);
  if ("problem" in checklist) return checklist;
  return {value: {subgoals: subgoals.value, checklist: checklist.value}};
};

// A model stepping out of the role to decline the request, as opposed to a character who declines in the story
// ("Sorry, I can't make it Tuesday" is an answer to keep): only wording about being an AI, the request or the role play.
const CANNOT = String.raw`(?:can(?:'|no)?t|cannot|unable to|won'?t|not able to)`;
const REFUSALS: readonly RegExp[] = [
  /\bas an ai\b/i,
  /\b(?:i am|i'm) (?:an ai|a language model|an ai language model|an ai assistant|a virtual assistant)\b/i,
  new RegExp(String.raw`\b${CANNOT} (?:assist|comply) with (?:that|this)\b`, "i"),
  new RegExp(String.raw`\b${CANNOT} (?:fulfil+|help with|assist with) (?:that|this|your) request\b`, "i"),
  new RegExp(String.raw`\b${CANNOT} (?:engage in|take part in|participate in|continue|do) (?:this|that|the|any) role[- ]?play`, "i"),
];

/** Whether an utterance steps out of the role to decline the request, rather than speaking in character. */
export const isRefusal = (text: string): boolean => {
  const plain = text.replace(/\u2019/g, "'"); // models often write a typographic apostrophe
  return REFUSALS.some((r) => r.test(plain));
};

export type StssActionType = "speak" | "none" | "leave";

export interface StssAction {
  type: StssActionType;
  argument: string;
}

/** `{action_type, argument}` with speak, none or leave; speaking says something, and a refusal is not a turn. */
export const checkStssAction: Check<StssAction> = (text) => {
  const parsed = jsonObjectOf(text);
  if ("problem" in parsed) return parsed;
  const o = parsed.value;
  const type = typeof o.action_type === "string" ? o.action_type.trim().toLowerCase() : null;
  if (type !== "speak" && type !== "none" && type !== "leave") return {problem: `"action_type" must be "speak", "none" or "leave", not ${JSON.stringify(o.action_type ?? null)}`};
  if (o.argument !== undefined && o.argument !== null && typeof o.argument !== "string") return {problem: `"argument" must be a string`};
  const argument = typeof o.argument === "string" ? o.argument.trim() : "";
  if (type === "speak" && !argument) return {problem: `the turn is empty: "argument" must say what you say for action_type "speak"`};
  if (argument && isRefusal(argument)) return {problem: "it declines to play the character; stay in the role and answer as the character would"};
  return {value: {type, argument: type === "none" ? "" : argument}};
};

/** A summary: non-empty text that is not a refusal. */
export const checkSummary: Check<string> = (text) => {
  const parsed = jsonObjectOf(text);
  if ("problem" in parsed) return parsed;
  const s = parsed.value.summary;
  if (typeof s !== "string" || !s.trim()) return {problem: `"summary" must be non-empty text`};
  if (isRefusal(s)) return {problem: "it declines to write the summary; write it as the character"};
  return {value: s.trim()};
};

export interface StssTurn {
  turn: number;
  /** 1: the performer, 2: the partner. */
  agent: 1 | 2;
  type: StssActionType;
  content: string;
}

/** The conversation as both sides read it, one line per turn. */
export function renderTranscript(turns: readonly StssTurn[], names: [string, string], opening: string): string {
  if (!turns.length) return opening;
  const lines = turns.map((t) => {
    const who = names[t.agent - 1];
    const said = t.type === "speak" ? `${who} said: "${t.content}"` : t.type === "none" ? `${who} said nothing` : `${who} left the conversation${t.content ? `: "${t.content}"` : ""}`;
    return `Turn ${t.turn + 1}: ${said}`;
  });
  return ["The conversation so far:", ...lines].join("\n");
}

const planText = (plan: TaskPlan | null): string =>
  plan ? ["", "Your plan for the task:", ...plan.subgoals.map((s, i) => `${i + 1}. ${s}`), "Keep in mind while talking:", ...plan.checklist.map((c) => `- ${c}`), ""].join("\n") : "";

/** The town as a partner knows it from the task file: who else lives there. */
function townText(task: StssTask, partner: string): string {
  const others = (task.characters ?? []).filter((c) => c !== partner);
  return others.length ? `Others you know in town: ${others.join(", ")}.` : "";
}

export function planPrompt(templates: StssTemplates, task: StssTask): ChatMessage[] {
  return fill(templates.plan, {performer: task.performer, task: taskText(task), answer_format: PLAN_FORMAT});
}

/** The prompt of `seat` (0: performer, 1: partner) before turn `turns.length`. */
export function turnPrompt(templates: StssTemplates, task: StssTask, partner: string, plan: TaskPlan | null, seat: 0 | 1, turns: readonly StssTurn[], maxTurns: number): ChatMessage[] {
  const names: [string, string] = [task.performer, partner];
  const common = {performer: task.performer, partner, max_turns: String(maxTurns), turn: String(turns.length + 1)};
  if (seat === 0) return fill(templates.performer, {...common, task: taskText(task), plan: planText(plan), transcript: renderTranscript(turns, names, `You approach ${partner}; you speak first.`)});
  return fill(templates.partner, {...common, town: townText(task, partner), transcript: renderTranscript(turns, names, "The conversation has not started yet.")});
}

export function summaryPrompt(templates: StssTemplates, task: StssTask, partner: string, turns: readonly StssTurn[]): ChatMessage[] {
  return fill(templates.summary, {performer: task.performer, partner, transcript: renderTranscript(turns, [task.performer, partner], "(nothing was said)")});
}

/** One conversation to play: a task and one of the partners it needs. */
export interface StssUnit {
  task: StssTask;
  partner: string;
}

export const stssUnits = (tasks: readonly StssTask[], seed: string | number): StssUnit[] =>
  tasks.flatMap((task) => requiredPartners(task, seed).map((partner) => ({task, partner})));

export interface StssRunOptions {
  runId: string;
  /** The tested model (the performer, and the planning step), and the partner model (partner turns and the summary). */
  models: [string, string];
  architecture: StssArchitecture;
  maxTurns: number;
  maxStaleTurns?: number;
  maxAttempts: number;
  temperature?: number;
  concurrency: number;
  templates: StssTemplates;
  selection?: Record<string, unknown>;
  onDone?: (done: number) => void;
}

/** Where a bad answer stopped a conversation: the step and every rejected answer, verbatim. */
export interface StssFailure {
  stage: "plan" | "turn" | "summary";
  agent: 1 | 2;
  turn?: number;
  attempts: Attempt[];
}

export interface PlayedConversation {
  plan: TaskPlan | null;
  turns: StssTurn[];
  ended: EndReason;
  summary: string | null;
  failure: StssFailure | null;
  requests: number;
}

type PlanOutcome = {ok: true; plan: TaskPlan; requests: number} | {ok: false; failure: StssFailure; requests: number};

/** Plays one conversation to its end (a leave, the turn limit, stale turns, or a bad answer), then asks for the summary. */
export async function playConversation(chat: Chat, unit: StssUnit, plan: TaskPlan | null, o: StssRunOptions): Promise<PlayedConversation> {
  const {task, partner} = unit;
  const played: PlayedConversation = {plan, turns: [], ended: "max_turns", summary: null, failure: null, requests: 0};
  const sample = sampleOf(o.runId);
  let stale = 0;
  for (let turn = 0; turn < o.maxTurns; turn++) {
    const seat = (turn % 2) as 0 | 1;
    const answer = await askValidated(chat, {
      model: o.models[seat], messages: turnPrompt(o.templates, task, partner, plan, seat, played.turns, o.maxTurns), temperature: o.temperature, json: true,
      template: templateId(seat === 0 ? "stss-performer" : "stss-partner", seat === 0 ? o.templates.performer : o.templates.partner), sample,
    }, checkStssAction, o.maxAttempts);
    played.requests += answer.attempts.length;
    if (!answer.ok) {
      played.ended = "failed";
      played.failure = {stage: "turn", agent: (seat + 1) as 1 | 2, turn, attempts: answer.attempts};
      break;
    }
    played.turns.push({turn, agent: (seat + 1) as 1 | 2, type: answer.value.type, content: answer.value.argument});
    if (answer.value.type === "leave") {
      played.ended = "leave";
      break;
    }
    if (answer.value.type === "none" && ++stale > (o.maxStaleTurns ?? DEFAULT_MAX_STALE_TURNS)) {
      played.ended = "stale";
      break;
    }
    if (answer.value.type !== "none") stale = 0;
  }
  // A conversation cut short by a bad answer is still summarised: the listener heard what was said before it.
  if (!played.turns.some((t) => t.content)) return played;
  const summary = await askValidated(chat, {
    model: o.models[1], messages: summaryPrompt(o.templates, task, partner, played.turns), temperature: o.temperature, json: true,
    template: templateId("stss-summary", o.templates.summary), sample,
  }, checkSummary, o.maxAttempts);
  played.requests += summary.attempts.length;
  if (summary.ok) played.summary = summary.value;
  else {
    // A summary never written fails the conversation (README), whatever ended the talk: the transcript keeps that.
    played.ended = "failed";
    played.failure ??= {stage: "summary", agent: 2, attempts: summary.attempts};
  }
  return played;
}

export const stssConversationId = (unit: StssUnit): string => `${unit.task.task_id}:${unit.partner}`;

export const stssEpisodeId = (unit: StssUnit, o: Pick<StssRunOptions, "runId" | "models" | "architecture">): string =>
  episodeId("stss", o.runId, [unit.task.task_id, unit.partner, o.models, o.architecture]);

/** A played conversation as a record of the `stss` format (docs/formats.md § stss), conditions listed without verdicts. */
export function stssRecord(unit: StssUnit, played: PlayedConversation, o: StssRunOptions) {
  const names: [string, string] = [unit.task.performer, unit.partner];
  return {
    episode_id: stssEpisodeId(unit, o),
    task_id: unit.task.task_id,
    conversation_id: stssConversationId(unit),
    model: o.models[0],
    architecture: o.architecture,
    performer: unit.task.performer,
    partner: unit.partner,
    partner_model: o.models[1],
    transcript: played.turns.filter((t) => t.type === "speak" || (t.type === "leave" && t.content)).map((t) => ({speaker: names[t.agent - 1], text: t.content})),
    summary: played.summary,
    goal_conditions: SUGGESTED_CONDITIONS[unit.task.category].map((c) => ({name: c.name, label: c.label})),
    tag: `run:${o.runId}`,
    settings: {
      runner: "stss", run_id: o.runId, max_turns: o.maxTurns, max_stale_turns: o.maxStaleTurns ?? DEFAULT_MAX_STALE_TURNS,
      temperature: o.temperature ?? null, ended: played.ended,
      actions: played.turns.map((t) => ({turn: t.turn, agent: t.agent, action_type: t.type})),
      ...(played.plan ? {plan: played.plan} : {}),
      ...(played.failure ? {failure: played.failure} : {}),
      templates: Object.fromEntries(Object.entries(o.templates).map(([k, t]) => [k, t.version])),
      ...(o.selection ? {selection: o.selection} : {}),
    },
  };
}

export type StssRecord = ReturnType<typeof stssRecord>;

export interface StssRunResult {
  records: StssRecord[];
  failures: EndpointFailure[];
  requests: number;
}

/**
 * Plays every conversation, the planning step once per task (GA+TDP), shared
 * by its conversations. An endpoint error leaves a conversation out (a rerun
 * resumes it from the cache); bad answers are recorded, never dropped.
 */
export async function runStss(chat: Chat, units: readonly StssUnit[], o: StssRunOptions): Promise<StssRunResult> {
  const plans = new Map<string, Promise<PlanOutcome>>();
  let requests = 0;
  const planFor = (task: StssTask): Promise<PlanOutcome> => {
    let p = plans.get(task.task_id);
    if (!p) {
      p = askValidated(chat, {model: o.models[0], messages: planPrompt(o.templates, task), temperature: o.temperature, json: true,
        template: templateId("stss-plan", o.templates.plan), sample: sampleOf(o.runId)}, checkPlan, o.maxAttempts)
        .then((a) => (a.ok ? {ok: true as const, plan: a.value, requests: a.attempts.length} : {ok: false as const, failure: {stage: "plan" as const, agent: 1 as const, attempts: a.attempts}, requests: a.attempts.length}));
      plans.set(task.task_id, p);
      void p.then((r) => (requests += r.requests), () => undefined);
    }
    return p;
  };
  const failures: EndpointFailure[] = [];
  let done = 0;
  const outcomes = await mapPool(units, o.concurrency, async (unit) => {
    try {
      let plan: TaskPlan | null = null;
      if (o.architecture === "GA+TDP") {
        const planned = await planFor(unit.task);
        if (!planned.ok) return stssRecord(unit, {plan: null, turns: [], ended: "failed", summary: null, failure: planned.failure, requests: 0}, o);
        plan = planned.plan;
      }
      const played = await playConversation(chat, unit, plan, o);
      requests += played.requests;
      return stssRecord(unit, played, o);
    } catch (e) {
      failures.push({what: `task ${unit.task.task_id}, partner ${unit.partner}`, message: errorMessage(e)});
      return null;
    } finally {
      o.onDone?.(++done);
    }
  });
  return {records: outcomes.filter((r) => r !== null), failures, requests};
}
