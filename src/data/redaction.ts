// What the site never ships: a key-shaped substring of any text. One rule, in
// SQL, for the table explorer (explorer-tables.ts) and for every page data
// loader (store.ts emitParquet), so a page cannot show what the explorer hides.

import type {DuckDBConnection} from "@duckdb/node-api";
import {rows} from "../../loaders/store/db.js";

// RE2 (DuckDB) and JavaScript (with the u flag) read the pattern below alike,
// so the site redacts the same substrings whichever side does it: no inline
// flags (JavaScript has none), ASCII whitespace spelt out (the two engines'
// \s differ), and case-blind words as classes of every letter RE2's case
// folding matches (ſ for s, the Kelvin sign for k).
const WHITESPACE = "\\t\\n\\f\\r ";
const FOLDS: Readonly<Record<string, string>> = {s: "Ss\u017F", k: "Kk\u212A"};
const caseless = (word: string): string =>
  Array.from(word, (c) => (/[a-z]/.test(c) ? `[${FOLDS[c] ?? c.toUpperCase() + c}]` : c)).join("");

/** Substrings shaped like credentials: OpenAI / Anthropic / Hugging Face / GitHub / Google / AWS keys, bearer tokens, `api_key: …` pairs. RE2 and JavaScript (u flag) syntax. */
export const KEY_PATTERN = [
  // At a word's start: "ask-for-help-with-…" or "task-…" ids are no keys.
  "\\bsk-[A-Za-z0-9_-]{16,}",
  "hf_[A-Za-z0-9]{20,}",
  "gh[pousr]_[A-Za-z0-9]{20,}",
  "AIza[0-9A-Za-z_-]{30,}",
  "AKIA[0-9A-Z]{16}",
  `${caseless("bearer")}[${WHITESPACE}]+[A-Za-z0-9._~+/=-]{12,}`,
  // A scheme word after the name ("Authorization: Bearer …") belongs to the secret, not to its label.
  `(?:${["api", "x-api-key", "authorization", "secret", "password"].map((w) => (w === "api" ? `${caseless("api")}[_-]?${caseless("key")}` : caseless(w))).join("|")})` +
    `["']?[${WHITESPACE}]*[:=][${WHITESPACE}]*["']?(?:(?:${["bearer", "basic", "token"].map(caseless).join("|")})[${WHITESPACE}]+)?[^${WHITESPACE}"',}]{6,}`,
].join("|");

/** What replaces a key-shaped substring. */
export const REDACTED = "[redacted]";

const PATTERN_LITERAL = `'${KEY_PATTERN.replaceAll("'", "''")}'`;

const KEY_REGEXP = new RegExp(KEY_PATTERN, "gu");

/** `text` with every key-shaped substring replaced by REDACTED: what redactedTextSql gives in DuckDB, for values computed in JavaScript. */
export const redactText = (text: string): string => text.replace(KEY_REGEXP, REDACTED);

/** `value` with every string in it (at any depth of arrays and plain objects, keys included) passed through redactText. */
export function redactStrings<T>(value: T): T {
  if (typeof value === "string") return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactStrings(v)) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redactText(k)] = redactStrings(v);
    return out as T;
  }
  return value;
}

/** SQL: the text `sql` with every key-shaped substring replaced by REDACTED. */
export const redactedTextSql = (sql: string): string => `regexp_replace(${sql}, ${PATTERN_LITERAL}, '${REDACTED}', 'g')`;

/** SQL: whether the text `sql` holds a key-shaped substring. */
export const hasKeySql = (sql: string): string => `regexp_matches(${sql}, ${PATTERN_LITERAL})`;

/** A double-quoted SQL identifier. */
export const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Types that cannot hold text, passed on as they are: numbers, booleans, dates and times, and lists of them. */
export const PLAIN_TYPE = /^(BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL\(\d+,\s*\d+\)|DATE|TIME|TIMESTAMP|TIMESTAMP_S|TIMESTAMP_MS|TIMESTAMP_NS|TIMESTAMP WITH TIME ZONE)(\[\])*$/;

/**
 * The query `sql` with each of its text columns (and lists of text) passed
 * through redactedTextSql, and plain columns as they are. Any other column
 * (JSON, a struct, a map, …) can hold text the pattern would not see inside
 * it, so it is shipped as its redacted text form, as the explorer ships it.
 */
export async function redactedQuery(conn: DuckDBConnection, sql: string): Promise<string> {
  const columns = await rows<{column_name: string; column_type: string}>(conn, `DESCRIBE SELECT * FROM (${sql})`);
  const list = columns.map(({column_name: name, column_type: type}) => {
    const c = ident(name);
    if (PLAIN_TYPE.test(type)) return c;
    if (type === "VARCHAR") return `${redactedTextSql(c)} AS ${c}`;
    if (type === "VARCHAR[]") return `list_transform(${c}, x -> ${redactedTextSql("x")}) AS ${c}`;
    return `${redactedTextSql(`CAST(${c} AS VARCHAR)`)} AS ${c}`;
  });
  return `SELECT ${list.join(", ")} FROM (${sql})`;
}
