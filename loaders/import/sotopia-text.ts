// Reading the natural-language pieces of sotopia logs: action texts, the
// judge's reasoning, the rendered context and the rendered conversation.

import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";

export interface Action {
  action_type: string;
  content: string;
}

const BRACKETED = /^\[(non-verbal communication|action)\]\s?([\s\S]*)$/;

/** An agent's action as sotopia renders it (`said: "…"`, `[action] …`, `did nothing`, `left the conversation`). */
export function parseAction(text: string): Action {
  const trimmed = text.trim();
  // Not replace(/,$/): the regexp tries every position of the text for its comma.
  const t = trimmed.endsWith(",") ? trimmed.slice(0, -1) : trimmed;
  if (t.startsWith("said:")) {
    let body = t.slice(5).trim();
    if (body.length >= 2 && body.startsWith('"') && body.endsWith('"')) body = body.slice(1, -1);
    return {action_type: "speak", content: body};
  }
  if (t === "did nothing") return {action_type: "none", content: ""};
  if (t === "left the conversation") return {action_type: "leave", content: ""};
  const m = BRACKETED.exec(t);
  if (m) return {action_type: m[1] === "action" ? "action" : "non-verbal", content: m[2]};
  // Kept verbatim rather than dropped: the viewer still shows it.
  return {action_type: "other", content: t};
}

const DIMENSION_KEYS = SOTOPIA_DIMENSIONS.map((d) => d.key);
const DIMENSION_LINE = new RegExp(`^(${DIMENSION_KEYS.join("|")}):\\s?`);

/**
 * The judge's rationale per seat and dimension, from a reasoning text shaped
 * `Agent 1 comments:\n<dimension>: <text>\n…`. Missing parts are simply absent.
 */
export function parseReasoning(reasoning: string): Map<number, Map<string, string>> {
  const out = new Map<number, Map<string, string>>();
  const blocks = splitAgentBlocks(reasoning);
  for (let i = 1; i + 1 < blocks.length; i += 2) {
    const seat = Number(blocks[i]);
    const byDim = new Map<string, string>();
    let current: string | null = null;
    for (const line of blocks[i + 1].split("\n")) {
      const m = DIMENSION_LINE.exec(line);
      if (m) {
        current = m[1];
        byDim.set(current, line.slice(m[0].length));
      } else if (current && line.trim()) {
        byDim.set(current, `${byDim.get(current)}\n${line}`);
      }
    }
    for (const [k, v] of byDim) byDim.set(k, v.trim());
    out.set(seat, byDim);
  }
  return out;
}

const AGENT_HEADER = /Agent (\d+) comments:\s*$/my;
const LINE_BREAKS = "\n\r\u2028\u2029";

/**
 * `text.split(/^Agent (\d+) comments:\s*$/m)`, found faster: that regex tries
 * every position of the text (a tenth of a dump import's parsing time went
 * there), this tries only where "Agent " starts a line. Same pieces, same order.
 */
export function splitAgentBlocks(text: string): string[] {
  const out: string[] = [];
  let piece = 0;
  for (let at = text.indexOf("Agent "); at !== -1; at = text.indexOf("Agent ", at + 1)) {
    if (at > 0 && !LINE_BREAKS.includes(text[at - 1])) continue;
    AGENT_HEADER.lastIndex = at;
    const m = AGENT_HEADER.exec(text);
    if (!m) continue;
    out.push(text.slice(piece, at), m[1]);
    piece = at + m[0].length;
    at = piece - 1;
  }
  out.push(text.slice(piece));
  return out;
}

export interface RenderedContext {
  scenario: string | null;
  names: string[];
  goals: Map<string, string>;
  backgrounds: Map<string, string>;
}

/** Scenario, participants, goals and backgrounds from sotopia's rendered context ("Here is the context of this interaction: …"). */
export function parseContext(text: string): RenderedContext {
  const scenario = /^Scenario: (.*)$/m.exec(text)?.[1]?.trim() ?? null;
  const participants = /^Participants: (.*)$/m.exec(text)?.[1]?.trim();
  const names = participants ? participants.split(" and ").map((s) => s.trim()) : [];
  const goals = new Map<string, string>();
  const backgrounds = new Map<string, string>();
  for (const name of names) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const goal = new RegExp(`^${escaped}'s goal: (.*)$`, "m").exec(text)?.[1]?.trim();
    if (goal && goal !== "Unknown") goals.set(name, goal);
    const background = new RegExp(`^${escaped}'s background: (.*)$`, "m").exec(text)?.[1]?.trim();
    if (background) backgrounds.set(name, background);
  }
  return {scenario, names, goals, backgrounds};
}

export interface RenderedTurn {
  turn: number;
  speaker: string | null;
  action: Action;
}

/**
 * The conversation rendered as `Turn #N\n<name> <action>` (or `Turn #N: …`), as in
 * sotopia's evaluation prompt. Speakers are matched against the known names.
 */
export function parseRenderedConversation(text: string, names: readonly string[]): RenderedTurn[] {
  // A marker starts a line; an empty turn leaves two markers back to back. The
  // annotation study's prompts end on the turn no one took, as a last line `Turn #N,`.
  const marker = /(?<![^\n])Turn #(\d+)(?:(:)[ \t]*|(,)\s*$|[ \t]*(?:\n|$))/g;
  // One prompt writes every marker one way (`Turn #N` alone on its line, or `Turn #N: `):
  // a line of the other form is a model quoting a transcript inside its utterance.
  let colonForm: boolean | null = null;
  const starts: {turn: number; bodyStart: number; markerStart: number}[] = [];
  for (let m; (m = marker.exec(text)); ) {
    if (m[3] === undefined) {
      const colon = m[2] !== undefined;
      colonForm ??= colon;
      if (colon !== colonForm) continue;
    }
    starts.push({turn: Number(m[1]), bodyStart: m.index + m[0].length, markerStart: m.index});
  }
  const turns: RenderedTurn[] = [];
  for (const [i, s] of starts.entries()) {
    const end = i + 1 < starts.length ? starts[i + 1].markerStart : text.length;
    const body = text.slice(s.bodyStart, end).trim().replace(/,$/, "");
    if (!body) continue;
    const speaker = names.find((n) => body.startsWith(`${n} `)) ?? null;
    const previous = turns[turns.length - 1];
    if (!speaker && previous) {
      // A "Turn #N" line inside an utterance (models sometimes write one): it belongs to the utterance before it.
      previous.action.content += `\n${text.slice(s.markerStart, end).trim()}`;
      continue;
    }
    const rest = speaker ? body.slice(speaker.length + 1) : body;
    turns.push({turn: s.turn, speaker, action: parseAction(rest)});
  }
  return turns;
}
