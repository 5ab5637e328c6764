// `sociometer run informativebench` (iAgents §2–3, §5; METRICS.md §
// InformativeBench): two agents, each holding only its own people's
// information, talk for at most max-turns messages and then agent 1 answers.
// With InfoNav each agent first plans the facts it needs (all unknown), updates
// the plan after every message, and the two plans go through a consensus step
// before the answer. Mixed memory and recursive communication are left out:
// §5 turns them off for the NP and Schedule datasets, whose information fits in
// the prompt and whose social network is two people. The questions, and what
// each agent sees of them, come from informativebench-questions.ts.

import {committedChat, type Chat} from "../chat.js";
import {fill, loadTemplate, type Template} from "../template.js";
import {askValidated, jsonObjectOf, type Attempt, type Check} from "./answer.js";
import type {IbQuestion} from "./informativebench-questions.js";
import type {RunTotals} from "./sotopia.js";
import {episodeId, errorMessage, mapPool, sampleOf, stableHash, type EndpointFailure} from "./support.js";

// ---------------------------------------------------------------------------
// Templates and answers.

const TEMPLATE_FIELDS = {
  plan: ["person", "partner", "information", "question"],
  update: ["person", "partner", "information", "question", "plan", "conversation"],
  turn: ["person", "partner", "information", "question", "plan", "conversation", "turn", "max_turns"],
  consensus: ["question", "plans", "conversation"],
  answer: ["person", "partner", "information", "question", "conversation", "consensus"],
} as const;

export type IbTemplates = Record<keyof typeof TEMPLATE_FIELDS, Template>;

/** The shipped templates (loaders/run/templates/informativebench-*.txt). */
export function loadIbTemplates(): IbTemplates {
  return Object.fromEntries(Object.entries(TEMPLATE_FIELDS).map(([step, fields]) => [step, loadTemplate(`informativebench-${step}`, fields)])) as IbTemplates;
}

/** A template's id as the cache key and the run id take it: editing a prompt re-asks. */
export const templateId = (t: Template): string => `${t.name}@${t.version}`;

/** One fact of an InfoNav plan: "known" with its content, or "unknown". */
export interface Rationale {
  rationale: string;
  status: "unknown" | "known";
  content: string;
}

/**
 * A fact marked known whose content says nothing or says it is not known:
 * the "fake solved" hallucination of §5.3 ("solved, which is unknown").
 */
export function isFakeSolved(r: Rationale): boolean {
  if (r.status !== "known") return false;
  const c = r.content.trim().toLowerCase().replace(/[.!]+$/, "");
  return c === "" || c === "?" || /\b(unknown|not known|not yet known|not provided|not specified|not mentioned|to be determined|tbd|n\/a)\b/.test(c);
}

/** An answer that declines the task instead of doing it. */
export const refuses = (text: string): boolean =>
  /^\s*(?:(?:i'?m sorry|sorry|i apologi[sz]e)[,.!]?\s*(?:but\s+)?)?(?:i|we)\s+(?:can ?not|can't|won't|will not|am unable to|'m unable to|are unable to)\s+(?:help|assist|comply|answer|provide|share|participate|do (?:that|this))/i.test(text);

/** Validates a plan: a non-empty list of distinctly named facts, each unknown or known; the first plan is all unknown. */
export const checkPlan = (first: boolean): Check<Rationale[]> => (text) => {
  const parsed = jsonObjectOf(text);
  if ("problem" in parsed) return parsed;
  const list = parsed.value.rationales;
  if (!Array.isArray(list)) return {problem: `"rationales" is missing or not a list`};
  if (!list.length) return {problem: `"rationales" is empty: list at least one fact you need`};
  const plan: Rationale[] = [];
  const seen = new Set<string>();
  for (const [i, r] of list.entries()) {
    if (r === null || typeof r !== "object" || Array.isArray(r)) return {problem: `rationales[${i}] is not an object`};
    const o = r as Record<string, unknown>;
    const name = typeof o.rationale === "string" ? o.rationale.trim() : "";
    if (!name) return {problem: `rationales[${i}].rationale is missing or empty: name the fact`};
    if (seen.has(name)) return {problem: `${JSON.stringify(name)} is listed twice`};
    seen.add(name);
    const status = typeof o.status === "string" ? o.status.trim().toLowerCase() : "";
    if (status !== "unknown" && status !== "known") return {problem: `rationales[${i}].status must be "unknown" or "known", not ${JSON.stringify(o.status ?? null)}`};
    if (first && status !== "unknown") return {problem: `the plan comes before anything was said: ${JSON.stringify(name)} must be "unknown"`};
    if (o.content !== undefined && o.content !== null && typeof o.content !== "string") return {problem: `rationales[${i}].content must be a string`};
    plan.push({rationale: name, status, content: typeof o.content === "string" ? o.content.trim() : ""});
  }
  return {value: plan};
};

export interface Message {
  text: string;
  finished: boolean;
}

/** Validates a turn: a message with something in it, not a refusal. */
export const checkTurn: Check<Message> = (text) => {
  const parsed = jsonObjectOf(text);
  if ("problem" in parsed) return refuses(text) ? {problem: "it declines the task; write a message to the other assistant"} : parsed;
  const o = parsed.value;
  if (typeof o.message !== "string") return {problem: `"message" is missing or not a string`};
  if (!o.message.trim()) return {problem: `"message" is empty: write what you say to the other assistant`};
  if (refuses(o.message)) return {problem: "the message declines the task; ask for or share what the question needs"};
  if (o.finished !== undefined && o.finished !== null && typeof o.finished !== "boolean") return {problem: `"finished" must be true or false`};
  return {value: {text: o.message.trim(), finished: o.finished === true}};
};

export interface ConsensusDecision {
  kept: string[];
  dropped: string[];
}

/** Validates the consensus: every fact of each final plan kept or dropped, once, by its name. */
export const checkConsensus = (plans: readonly [Rationale[], Rationale[]]): Check<[ConsensusDecision, ConsensusDecision]> => (text) => {
  const parsed = jsonObjectOf(text);
  if ("problem" in parsed) return parsed;
  const out: ConsensusDecision[] = [];
  for (const [i, plan] of plans.entries()) {
    const key = `agent_${i + 1}`;
    const o = parsed.value[key];
    if (o === null || typeof o !== "object" || Array.isArray(o)) return {problem: `"${key}" is missing or not an object with "kept" and "dropped"`};
    const inPlan = new Set(plan.map((r) => r.rationale));
    const decided = new Set<string>();
    const decision: ConsensusDecision = {kept: [], dropped: []};
    for (const side of ["kept", "dropped"] as const) {
      const list = (o as Record<string, unknown>)[side] ?? [];
      if (!Array.isArray(list)) return {problem: `"${key}.${side}" must be a list of fact names`};
      for (const n of list) {
        const name = typeof n === "string" ? n.trim() : "";
        if (!inPlan.has(name)) return {problem: `${JSON.stringify(n)} in "${key}.${side}" is not a fact of that plan (its facts: ${[...inPlan].map((r) => JSON.stringify(r)).join(", ")})`};
        if (decided.has(name)) return {problem: `${JSON.stringify(name)} is decided twice in "${key}"`};
        decided.add(name);
        decision[side].push(name);
      }
    }
    const missing = [...inPlan].filter((r) => !decided.has(r));
    if (missing.length) return {problem: `"${key}" does not decide ${missing.map((r) => JSON.stringify(r)).join(", ")}: keep or drop every fact`};
    out.push(decision);
  }
  return {value: out as [ConsensusDecision, ConsensusDecision]};
};

/** Validates the answer: some text (a number is taken as its text), not a refusal. */
export const checkAnswer: Check<string> = (text) => {
  const parsed = jsonObjectOf(text);
  if ("problem" in parsed) return refuses(text) ? {problem: "it declines to answer; give the answer"} : parsed;
  const a = parsed.value.answer;
  const answer = typeof a === "number" ? String(a) : typeof a === "string" ? a.trim() : null;
  if (answer === null) return {problem: `"answer" is missing or not a string`};
  if (!answer) return {problem: `"answer" is empty`};
  if (refuses(answer)) return {problem: "the answer declines the question; give the answer"};
  return {value: answer};
};

// ---------------------------------------------------------------------------
// One question, played.

export interface Turn {
  turn: number;
  agent: 1 | 2;
  content: string;
}

export interface IbFailure {
  step: "plan" | "turn" | "update" | "consensus" | "answer";
  agent: 1 | 2;
  /** The message the step belongs to (0-based), for turns and plan updates. */
  turn: number | null;
  attempts: Attempt[];
}

export interface IbPlayed {
  turns: Turn[];
  /** Each agent's plans: update 0 is the initial plan, then one per message. Empty with InfoNav off. */
  plans: [Rationale[][], Rationale[][]];
  consensus: [ConsensusDecision, ConsensusDecision] | null;
  answer: string | null;
  ended: "finished" | "max_turns" | "failed";
  failure: IbFailure | null;
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

export interface IbPlayOptions {
  models: [string, string];
  maxTurns: number;
  maxAttempts: number;
  temperature?: number;
  infonav: boolean;
  templates: IbTemplates;
  /** ChatRequest.sample: the run. */
  sample: string;
}

/** A step whose every attempt was unusable: ends the question as failed. */
class BadAnswer extends Error {
  constructor(readonly failure: IbFailure) {
    super(`agent ${failure.agent} gave no usable ${failure.step}`);
  }
}

const renderConversation = (q: IbQuestion, turns: readonly Turn[]): string =>
  turns.length ? turns.map((t) => `${t.turn + 1}. Assistant of ${q.sides[t.agent - 1].people}: ${t.content}`).join("\n") : "(nothing has been said yet)";

const renderPlan = (plan: readonly Rationale[]): string =>
  plan.map((r) => `- ${r.rationale}: ${r.status === "known" ? `known: ${r.content || "(nothing written)"}` : "unknown"}`).join("\n");

/** Runs both agents' steps together; a bad answer of agent 1 is reported before agent 2's, and endpoint errors before both. */
async function both<T>(a: Promise<T>, b: Promise<T>): Promise<[T, T]> {
  const [x, y] = await Promise.allSettled([a, b]);
  const rejected = [x, y].filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as unknown);
  const endpoint = rejected.find((e) => !(e instanceof BadAnswer));
  if (endpoint !== undefined) throw endpoint;
  if (rejected.length) throw rejected[0];
  return [(x as PromiseFulfilledResult<T>).value, (y as PromiseFulfilledResult<T>).value];
}

/** The prompts of one question's first step for agent 1 (the dry run shows them). */
export function firstPrompt(q: IbQuestion, o: Pick<IbPlayOptions, "infonav" | "templates" | "maxTurns">) {
  const base = {person: q.sides[0].people, partner: q.sides[1].people, information: q.sides[0].information, question: q.question};
  return o.infonav
    ? fill(o.templates.plan, base)
    : fill(o.templates.turn, {...base, plan: "", conversation: renderConversation(q, []), turn: "1", max_turns: String(o.maxTurns)});
}

/** Plays a question to its answer, or to the first step no attempt of which was usable. Endpoint errors propagate. */
export async function playQuestion(chat: Chat, q: IbQuestion, o: IbPlayOptions): Promise<IbPlayed> {
  const played: IbPlayed = {turns: [], plans: [[], []], consensus: null, answer: null, ended: "max_turns", failure: null, requests: 0, promptTokens: 0, completionTokens: 0};
  const who = (seat: 0 | 1) => ({person: q.sides[seat].people, partner: q.sides[1 - seat]!.people, information: q.sides[seat].information, question: q.question});
  async function ask<T>(step: IbFailure["step"], seat: 0 | 1, turn: number | null, template: Template, values: Record<string, string>, check: Check<T>): Promise<T> {
    const r = await askValidated(chat, {model: o.models[seat], messages: fill(template, values), temperature: o.temperature, json: true, template: templateId(template), sample: o.sample}, check, o.maxAttempts);
    played.requests += r.attempts.length;
    played.promptTokens += r.promptTokens;
    played.completionTokens += r.completionTokens;
    if (!r.ok) throw new BadAnswer({step, agent: (seat + 1) as 1 | 2, turn, attempts: r.attempts});
    return r.value;
  }
  const lastPlan = (seat: 0 | 1) => played.plans[seat][played.plans[seat].length - 1]!;
  try {
    if (o.infonav) {
      const first = await both(...([0, 1] as const).map((seat) => ask("plan", seat, null, o.templates.plan, who(seat), checkPlan(true))) as [Promise<Rationale[]>, Promise<Rationale[]>]);
      played.plans = [[first[0]], [first[1]]];
    }
    for (let turn = 0; turn < o.maxTurns; turn++) {
      const seat = (turn % 2) as 0 | 1;
      const message = await ask("turn", seat, turn, o.templates.turn, {
        ...who(seat), plan: o.infonav ? `## Your plan\n${renderPlan(lastPlan(seat))}\n\n` : "",
        conversation: renderConversation(q, played.turns), turn: String(turn + 1), max_turns: String(o.maxTurns),
      }, checkTurn);
      played.turns.push({turn, agent: (seat + 1) as 1 | 2, content: message.text});
      if (o.infonav) {
        const conversation = renderConversation(q, played.turns);
        const updated = await both(...([0, 1] as const).map((s) => ask("update", s, turn, o.templates.update, {...who(s), plan: renderPlan(lastPlan(s)), conversation}, checkPlan(false))) as [Promise<Rationale[]>, Promise<Rationale[]>]);
        played.plans[0].push(updated[0]);
        played.plans[1].push(updated[1]);
      }
      if (message.finished) {
        played.ended = "finished";
        break;
      }
    }
    const conversation = renderConversation(q, played.turns);
    let consensus = "";
    if (o.infonav) {
      const finals: [Rationale[], Rationale[]] = [lastPlan(0), lastPlan(1)];
      const plans = finals.map((p, i) => `### agent_${i + 1} (assistant of ${q.sides[i]!.people})\n${renderPlan(p)}`).join("\n\n");
      played.consensus = await ask("consensus", 0, null, o.templates.consensus, {question: q.question, plans, conversation}, checkConsensus(finals));
      const kept = finals.flatMap((p, i) => p.filter((r) => played.consensus![i]!.kept.includes(r.rationale)));
      consensus = `## The facts both plans agree on\n${kept.length ? renderPlan(kept) : "(none was kept)"}\n\n`;
    }
    played.answer = await ask("answer", 0, null, o.templates.answer, {...who(0), conversation, consensus}, checkAnswer);
    return played;
  } catch (e) {
    if (!(e instanceof BadAnswer)) throw e;
    played.ended = "failed";
    played.failure = e.failure;
    return played;
  }
}

// ---------------------------------------------------------------------------
// The run and its records.

export interface IbRunOptions extends Omit<IbPlayOptions, "sample"> {
  runId: string;
  concurrency: number;
  onDone?: (done: number) => void;
}

/** A question's episode id: its dataset, id and content (a question changed under the same id is another episode). */
export const ibEpisodeId = (q: IbQuestion, runId: string): string =>
  episodeId("informativebench", runId, [q.dataset, q.questionId, stableHash([q.question, q.sides, q.gold])]);

/** The backend as Table 3 names it: the model, or both when the seats differ. */
export const backendOf = (models: readonly [string, string]): string => (models[0] === models[1] ? models[0] : `${models[0]} + ${models[1]}`);

/** A played question as an `informativebench` record (docs/formats.md), with the runner's own fields after the format's. */
export function ibRecord(q: IbQuestion, played: IbPlayed, o: Pick<IbRunOptions, "runId" | "models" | "infonav" | "maxTurns" | "temperature">) {
  const fake = (r: Rationale) => (isFakeSolved(r) ? "fake_solved" : r.status);
  // A failed question keeps its conversation and failure in the log, but no trajectory: half a plan would skew Table 4.
  const trajectory = o.infonav && played.failure === null
    ? played.plans.map((updates, i) => ({
      agent: `agent ${i + 1} (${q.sides[i]!.people})`,
      updates: updates.map((plan) => plan.map((r) => ({rationale: r.rationale, status: fake(r), content: r.content}))),
      consensus: played.consensus![i]!,
    }))
    : null;
  return {
    episode_id: ibEpisodeId(q, o.runId),
    model: backendOf(o.models), dataset: q.dataset, ...(q.metric ? {metric: q.metric} : {}),
    question_id: q.questionId, question: q.question, prediction: played.answer, gold: q.gold,
    settings: {infonav: o.infonav, memory: [], recursive: false},
    turns: played.turns.length, run: o.runId, trajectory,
    ...(q.synthetic ? {synthetic: true} : {}),
    runner: {models: o.models, max_turns: o.maxTurns, temperature: o.temperature ?? null, ended: played.ended, people: q.sides.map((s) => s.people)},
    conversation: played.turns,
    ...(played.failure ? {failure: played.failure} : {}),
  };
}

export type IbRecord = ReturnType<typeof ibRecord>;

/** Plays every question; an endpoint error leaves that question out (a rerun resumes it), a model that never answers usably is recorded as failed. */
export async function runInformativeBench(chat: Chat, questions: readonly IbQuestion[], o: IbRunOptions): Promise<{records: IbRecord[]; failures: EndpointFailure[]; totals: RunTotals}> {
  const totals: RunTotals = {requests: 0, promptTokens: 0, completionTokens: 0};
  const failures: EndpointFailure[] = [];
  let done = 0;
  // Every answer is in the cache before the step that depends on it is asked.
  const committed = committedChat(chat);
  const outcomes = await mapPool(questions, o.concurrency, async (q) => {
    try {
      const played = await playQuestion(committed, q, {...o, sample: sampleOf(o.runId)});
      totals.requests += played.requests;
      totals.promptTokens += played.promptTokens;
      totals.completionTokens += played.completionTokens;
      return ibRecord(q, played, o);
    } catch (e) {
      failures.push({what: `${q.dataset} question ${q.questionId}`, message: errorMessage(e)});
      return null;
    } finally {
      o.onDone?.(++done);
    }
  });
  return {records: outcomes.filter((r) => r !== null), failures, totals};
}
