// The table explorer's database is sealed: a published site may hold
// unreleased results, so the reader's SQL must not reach the network or any
// file, whatever it says. Two layers. The seal itself is DuckDB's own
// configuration (no external access, settings locked), which no statement can
// undo. In front of it, every statement of the reader's script is checked
// against the kinds the page runs, split and read with DuckDB's own tokenizer
// (the lexer its parser uses), so a `;` inside a string or comment, or a
// second statement after a harmless first one, is seen as DuckDB sees it.

/** Where CSV downloads are written inside DuckDB-wasm's in-memory file system: the one path the sealed database may touch. */
export const DOWNLOAD_FILE = "explorer-download.csv";

/**
 * Run once, right after connecting and before any reader's SQL. Tables still
 * load afterwards: they arrive as Arrow from parquet-wasm, never through
 * DuckDB's file system, which is what the seal closes.
 */
export const SEAL_SQL = [
  "SET autoinstall_known_extensions = false",
  "SET autoload_known_extensions = false",
  `SET allowed_paths = ['${DOWNLOAD_FILE}']`,
  "SET enable_external_access = false",
  "SET lock_configuration = true",
].join(";\n");

/** DuckDB's tokens of a script, as `AsyncDuckDB.tokenize` gives them: where each starts and its kind (comments are left out). */
export interface ScriptTokens {
  offsets: readonly number[];
  types: readonly number[];
}

/** duckdb::SimplifiedTokenType of `;`, `(`, `=` and the like. */
const OPERATOR_TOKEN = 3;

/** Statements that return rows: one alone is kept as the result table. */
const QUERY_WORDS = new Set(["SELECT", "WITH", "FROM", "VALUES", "TABLE", "DESCRIBE", "SUMMARIZE", "SHOW", "PIVOT", "UNPIVOT", "("]);
/** Statements that change only the page's own tables. */
const LOCAL_WORDS = new Set(["CREATE", "INSERT", "UPDATE", "DELETE", "DROP", "ALTER"]);
/** PRAGMAs that only read the catalog. */
const READING_PRAGMAS = new Set([
  "TABLE_INFO", "SHOW_TABLES", "SHOW_TABLES_EXPANDED", "SHOW_DATABASES", "STORAGE_INFO", "DATABASE_SIZE", "METADATA_INFO",
  "FUNCTIONS", "COLLATIONS", "VERSION", "PLATFORM",
]);

const WHAT_RUNS =
  "this page's database is sealed off from the network and from files, and its settings are locked. " +
  "It runs queries (SELECT, WITH, FROM, VALUES, DESCRIBE, SUMMARIZE, SHOW, PIVOT, EXPLAIN), " +
  "PRAGMAs that read the catalog (table_info, show_tables, …), and CREATE, INSERT, UPDATE, DELETE, DROP and ALTER on its own tables.";

export type ScriptCheck =
  | {ok: true; kind: "query" | "statement"}
  | {ok: false; message: string; /** 0-based index of the refused statement's first token in the script. */ offset: number};

interface Token {
  text: string;
  /** The token's leading word in capitals (a token DuckDB could not finish holds the rest of the script). */
  word: string;
  offset: number;
  operator: boolean;
}

function tokensOf(sql: string, tokens: ScriptTokens): Token[] {
  return tokens.offsets.map((offset, i) => {
    const text = sql.slice(offset, tokens.offsets[i + 1] ?? sql.length).trim();
    return {text, word: (/^[A-Za-z_]+|^\S/.exec(text)?.[0] ?? "").toUpperCase(), offset, operator: tokens.types[i] === OPERATOR_TOKEN};
  });
}

/** The script's statements, split at the `;` DuckDB's tokenizer reads as a separator; empty ones dropped. */
function statements(sql: string, tokens: ScriptTokens): Token[][] {
  const out: Token[][] = [[]];
  for (const token of tokensOf(sql, tokens)) {
    if (token.operator && token.text === ";") out.push([]);
    else out[out.length - 1].push(token);
  }
  return out.filter((s) => s.length > 0);
}

/** Why the page does not run `statement`, or null when it does. */
function refusal(statement: readonly Token[]): string | null {
  const [first, second, third] = statement;
  if (QUERY_WORDS.has(first.word) || LOCAL_WORDS.has(first.word)) return null;
  if (first.word === "EXPLAIN") {
    const target = second?.word === "ANALYZE" ? third : second;
    return target && QUERY_WORDS.has(target.word) ? null : `EXPLAIN ${target?.word ?? ""}`.trim();
  }
  if (first.word === "PRAGMA") {
    // `PRAGMA name` or `PRAGMA name(…)`; `PRAGMA name = value` sets something.
    const reads = second && READING_PRAGMAS.has(second.text.toUpperCase()) && (!third || third.text === "(");
    return reads ? null : `PRAGMA ${second?.text ?? ""}`.trim();
  }
  if (/^[A-Za-z_]+$/.test(first.text)) return first.word;
  return first.text.length > 20 ? `${first.text.slice(0, 20)}…` : first.text;
}

/**
 * Checks every statement of the reader's script (`tokens` from DuckDB's
 * tokenizer over `sql`): the first it refuses is named with its place, else
 * the script is a "query" (one statement that returns rows, kept as a result)
 * or a "statement" (anything else the page runs, run as written).
 */
export function checkScript(sql: string, tokens: ScriptTokens): ScriptCheck {
  const all = statements(sql, tokens);
  if (all.length === 0) return {ok: false, message: "There is no statement to run.", offset: 0};
  for (const statement of all) {
    const refused = refusal(statement);
    if (refused !== null) return {ok: false, message: `${refused} is not run here: ${WHAT_RUNS}`, offset: statement[0].offset};
  }
  return {ok: true, kind: all.length === 1 && QUERY_WORDS.has(all[0][0].word) ? "query" : "statement"};
}
