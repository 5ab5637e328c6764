// Field checks that turn untyped JSON into typed values, or say precisely what is wrong.

import {RecordProblem} from "./errors.js";

export type Json = null | boolean | number | string | Json[] | {[key: string]: Json};
export type JsonObject = {[key: string]: Json};

export const describe = (v: unknown): string =>
  v === undefined ? "nothing (the field is missing)" : v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `${typeof v} ${JSON.stringify(v).slice(0, 40)}`;

export function asObject(v: unknown, field: string): JsonObject {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new RecordProblem(field, `expected an object, got ${describe(v)}`);
  return v as JsonObject;
}

export function asArray(v: unknown, field: string): Json[] {
  if (!Array.isArray(v)) throw new RecordProblem(field, `expected an array, got ${describe(v)}`);
  return v;
}

export function asString(v: unknown, field: string): string {
  if (typeof v !== "string") throw new RecordProblem(field, `expected a string, got ${describe(v)}`);
  return v;
}

export function asNonEmptyString(v: unknown, field: string): string {
  const s = asString(v, field);
  if (!s.trim()) throw new RecordProblem(field, "must not be empty");
  return s;
}

export function optionalString(v: unknown, field: string): string | null {
  return v === undefined || v === null ? null : asString(v, field);
}

export function asBoolean(v: unknown, field: string): boolean {
  if (typeof v !== "boolean") throw new RecordProblem(field, `expected true or false, got ${describe(v)}`);
  return v;
}

export function asNumber(v: unknown, field: string): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new RecordProblem(field, `expected a number, got ${describe(v)}`);
  return v;
}

/** Parses one JSON document, turning a syntax error into a problem a user can read. */
export function parseJson(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (e) {
    throw new RecordProblem(null, `not valid JSON (${(e as Error).message}); is the record truncated?`);
  }
}
