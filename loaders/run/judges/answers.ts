// Reading a judge's JSON answer field by field, with problems that name the
// field, so the model can be told exactly what to fix.

import {scoreProblem, type Dimension} from "../../../src/lib/dimensions.js";
import {AnswerProblem} from "./engine.js";

/** What an answer gave for a field, for a problem: a missing field said in words, not as "undefined". */
const given = (v: unknown): string => (v === undefined ? "nothing (the field is missing)" : String(JSON.stringify(v)).slice(0, 80));

export function objectAt(v: unknown, path: string): Record<string, unknown> {
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new AnswerProblem(`${path || "the answer"}: expected a JSON object, got ${given(v)}`);
  return v as Record<string, unknown>;
}

export function textAt(v: unknown, path: string): string {
  if (typeof v !== "string" || !v.trim()) throw new AnswerProblem(`${path}: expected a non-empty string, got ${given(v)}`);
  return v.trim();
}

/** A score in the dimension's range (integer when the dimension is): out of range is a problem, never clipped. */
export function scoreAt(v: unknown, path: string, dim: Dimension): number {
  const problem = scoreProblem(dim, v);
  if (problem) throw new AnswerProblem(`${path}: ${problem}`);
  return v as number;
}

export function oneOf<T extends string>(v: unknown, path: string, allowed: readonly T[]): T {
  if (typeof v !== "string" || !allowed.includes(v as T)) throw new AnswerProblem(`${path}: expected one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}, got ${given(v)}`);
  return v as T;
}

/** The "agent_N" key of an answer about a participant. */
export const agentKey = (agent: number) => `agent_${agent}`;
