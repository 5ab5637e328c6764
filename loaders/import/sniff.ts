// Which import format a file looks like, judged from its first record. A file
// that fails in its first record is most often a good file given the wrong
// format name, and the reader's own complaint ("not valid JSON", "episode_id
// missing") then points the wrong way: the import names the format that fits.

import {closeSync, openSync, readSync} from "node:fs";
import {isAbsolute, relative} from "node:path";
import {parseCsv} from "./csv.js";
import {ImportError} from "./errors.js";
import {LONG_REQUIRED} from "./sotopia-ratings.js";

/** A file's first record: the first object of a JSON document or JSONL file, or a CSV header. */
export type FirstRecord = {kind: "json"; keys: ReadonlySet<string>} | {kind: "csv"; columns: ReadonlySet<string>};

const has = (first: FirstRecord, ...keys: string[]): boolean => first.kind === "json" && keys.every((k) => first.keys.has(k));

/** An STSS conversation run carries its talk; an action-level run does not. */
const isConversationRun = (first: FirstRecord): boolean =>
  has(first, "task_id") && ["transcript", "conditions", "conversation_id", "summary"].some((k) => has(first, k));

/**
 * Per format, a cheap recogniser: the keys (or CSV columns) its first record
 * cannot do without, chosen so that no two formats claim the samples and
 * fixtures of another (test/import/sniff.test.ts).
 */
export const RECOGNISERS: Readonly<Record<string, (first: FirstRecord) => boolean>> = {
  canonical: (f) => has(f, "episode_id", "benchmark", "participants"),
  // The public dump, or an EpisodeLog as sotopia's local storage writes it.
  sotopia: (f) => has(f, "episode_id", "experiment_model_name_pairs") || has(f, "pk", "models"),
  "sotopia-ratings": (f) =>
    f.kind === "csv" && (["pk", "prolific_id"].every((c) => f.columns.has(c)) || LONG_REQUIRED.every((c) => f.columns.has(c))),
  lifelong: (f) => has(f, "episode_id", "chain_index", "agents"),
  "sonzai-lifelong": (f) => has(f, "pair_id", "episode_index", "transcript"),
  hsii: (f) => has(f, "case_id", "model"),
  "stss-tasks": (f) => has(f, "goal", "task_type", "task"),
  stss: isConversationRun,
  "stss-action": (f) => has(f, "task_id", "performer") && !isConversationRun(f),
  "informativebench-schedules": (f) => has(f, "question_id", "people"),
  informativebench: (f) => has(f, "question_id", "model") && !has(f, "people"),
};

/** Enough of the file for a first record of any format we know (a SOTOPIA dump line is tens of KB). */
const HEAD_BYTES = 4 << 20;

function readHead(path: string): string {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(HEAD_BYTES);
    const got = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    // Not fatal: a character cut at the end of the head, or a stray byte, must not hide the keys.
    return new TextDecoder("utf-8").decode(buffer.subarray(0, got)).replace(/^\uFEFF/, "");
  } finally {
    closeSync(fd);
  }
}

/** The JSON value (object or array) that starts at `start`, or undefined if it does not end within `text` or is not JSON. */
function jsonValueAt(text: string, start: number): unknown {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth++;
    else if ((ch === "}" || ch === "]") && --depth === 0) {
      try {
        return JSON.parse(text.slice(start, i + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The file's first record, or null when its head holds none we can read. */
export function firstRecord(path: string): FirstRecord | null {
  const text = readHead(path);
  const start = text.search(/\S/);
  if (start < 0) return null;
  if (text[start] === "{" || text[start] === "[") {
    let record: unknown;
    if (text[start] === "{") record = jsonValueAt(text, start);
    else {
      // A JSON array of records (tasks.json): its first element.
      const element = start + 1 + text.slice(start + 1).search(/\S/);
      record = text[element] === "{" ? jsonValueAt(text, element) : undefined;
    }
    return isObject(record) ? {kind: "json", keys: new Set(Object.keys(record))} : null;
  }
  try {
    const header = parseCsv(text).next();
    return header.done ? null : {kind: "csv", columns: new Set(header.value.fields.map((f) => f.trim()))};
  } catch {
    return null;
  }
}

/** The formats whose recogniser accepts the file's first record. */
export function formatsThatFit(path: string): string[] {
  const first = firstRecord(path);
  if (!first) return [];
  return Object.entries(RECOGNISERS).filter(([, fits]) => fits(first)).map(([name]) => name);
}

/** An import that failed in a file's first record, with the format(s) the file looks like. */
export class WrongFormatError extends ImportError {
  constructor(cause: ImportError, format: string, readonly likely: readonly string[]) {
    super(cause.file, cause.line, cause.field, cause.problem);
    const file = shellWord(displayPath(cause.file));
    this.message += `\n  this looks like ${likely.join(" or ")}, not ${format}: ${likely.map((f) => `sociometer import ${f} ${file}`).join(" or ")}`;
  }
}

/**
 * `error`, a failure in the first record of its file read as `format`, with a
 * suggestion when the file does not look like `format` but like another one;
 * otherwise `error` itself (the format fits and the record is wrong).
 */
export function suggestFormat(error: ImportError, format: string): ImportError {
  let fits: string[];
  try {
    fits = formatsThatFit(error.file);
  } catch {
    return error; // an unreadable file already has its own error
  }
  if (!fits.length || fits.includes(format)) return error;
  return new WrongFormatError(error, format, fits);
}

/** Relative to the working directory when the file is under it, as a user would type it. */
function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

/** The path quoted for a POSIX shell when it holds anything but plain characters. */
const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);
