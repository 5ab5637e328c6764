// Field checks that turn untyped JSON into typed values, or say precisely what is wrong.

import {RecordProblem} from "./errors.js";
import {duplicateKey, fieldAt, keyColons, loneSurrogate, MAX_JSON_DEPTH, positionOf, tooDeep} from "./json-text.js";

export type Json = null | boolean | number | string | Json[] | {[key: string]: Json};
export type JsonObject = {[key: string]: Json};

export const describe = (v: unknown): string =>
  v === undefined ? "nothing (the field is missing)" : v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object"
    // JSON.stringify writes Infinity as null; JSON.parse makes Infinity of a number past ~1.8e308 (1e999).
    : typeof v === "number" && !Number.isFinite(v) ? `${v} (past the largest number a double holds, about 1.8e308)`
    : `${typeof v} ${JSON.stringify(v).slice(0, 40)}`;

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

/** The largest value of the store's INTEGER columns (chain_index, turn, counts). */
export const INT32_MAX = 2147483647;
export const INT32_MIN = -2147483648;

/** A whole number in [min, max]; the default max is what an INTEGER column holds, so the store never meets a number it cannot take. */
export function asWholeNumber(v: unknown, field: string, min: number, max = INT32_MAX): number {
  const n = asNumber(v, field);
  if (!Number.isInteger(n) || n < min || n > max) throw new RecordProblem(field, `expected a whole number from ${min} to ${max}, got ${n}`);
  return n;
}

/**
 * Parses one JSON document, turning a syntax error into a problem a user can read.
 * JSON.parse itself nests without recursion; the depth limit protects the
 * recursive code after it. It is checked on the parsed tree (a few hundred
 * nodes a record: 5.6 µs of CPU a 31 KB dump line) rather than by scanning the
 * text before parsing (9.4 µs; JSON.parse itself takes 34); only a document
 * that fails is scanned, to say where.
 * Two things JSON.parse accepts without a word are refused too: a key given
 * twice in one object (it keeps the last value) and a lone surrogate escape
 * (it keeps a code unit the store turns into U+FFFD). The first compares the
 * key-like colons of the text with the keys of the tree, and scans the text
 * in full only when there are more; the second reads only `\u` escapes.
 */
export function parseJson(text: string): Json {
  let doc: Json;
  try {
    doc = JSON.parse(text) as Json;
  } catch (e) {
    // Too deep and malformed: the depth is reported, as when it was checked first.
    throw tooDeepProblem(text) ?? new RecordProblem(null, `not valid JSON (${(e as Error).message}); is the record truncated?`);
  }
  const keys = keysWithin(doc, MAX_JSON_DEPTH);
  if (keys < 0) throw tooDeepProblem(text) ?? new RecordProblem(null, tooDeepMessage("an unknown place"));
  // With no key twice the tree has every key the text has; more key-like colons than that is only a suspicion.
  const twice = keyColons(text) > keys ? duplicateKey(text) : null;
  if (twice) {
    throw new RecordProblem(twice.field, `duplicate key in one object (at ${place(text, twice.first)}, again at ${place(text, twice.at)}); `
      + "JSON keeps only the last of its values without a word, so the record is ambiguous: remove one");
  }
  const lone = loneSurrogate(text);
  if (lone >= 0) {
    throw new RecordProblem(fieldAt(text, lone), `a lone surrogate escape ${text.slice(lone, lone + 6)} (at ${place(text, lone)}): `
      + "half of a UTF-16 pair without its other half, which UTF-8 text cannot hold (the store would keep U+FFFD); was the text cut inside a character such as an emoji?");
  }
  return doc;
}

/** `column 12` within a one-line record, `line 3, column 12` within a longer document. */
function place(text: string, at: number): string {
  const {line, column} = positionOf(text, at);
  return line > 1 ? `line ${line}, column ${column}` : `column ${column}`;
}

const tooDeepMessage = (where: string): string => `nested more than ${MAX_JSON_DEPTH} levels deep (at ${where}); no log nests that deep: is the file corrupt?`;

function tooDeepProblem(text: string): RecordProblem | null {
  const deep = tooDeep(text);
  if (!deep) return null;
  return new RecordProblem(deep.field, tooDeepMessage(deep.line > 1 ? `line ${deep.line}, column ${deep.column}` : `column ${deep.column}`));
}

/** Whether `doc` has arrays or objects more than `limit` levels deep (the document itself is level 1). */
export function nestsDeeperThan(doc: Json, limit: number): boolean {
  return keysWithin(doc, limit) < 0;
}

/**
 * How many keys the objects of `doc` have, all levels together, or -1 when it
 * has arrays or objects more than `limit` levels deep. Walks with its own
 * stack: no depth overflows it.
 */
function keysWithin(doc: Json, limit: number): number {
  if (doc === null || typeof doc !== "object") return 0;
  const nodes: Json[] = [doc];
  const depths: number[] = [1];
  let keys = 0;
  while (nodes.length) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return -1;
    if (Array.isArray(node)) {
      for (const v of node) {
        if (v !== null && typeof v === "object") {
          nodes.push(v);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in node as JsonObject) {
        keys++;
        const v = (node as JsonObject)[key];
        if (v !== null && typeof v === "object") {
          nodes.push(v);
          depths.push(depth + 1);
        }
      }
    }
  }
  return keys;
}
