// The table explorer's logic that needs no browser: the SQL that pages,
// sorts, searches and filters a table (values bound as parameters, never
// spliced in), where a DuckDB error points in the reader's SQL, which tables a
// query names, and how column types are shown and charted.

/** A column of a table or result, with its DuckDB type (e.g. `VARCHAR`, `DOUBLE`, `VARCHAR[]`). */
export interface ColumnInfo {
  name: string;
  type: string;
}

export type FilterOp = "=" | "!=" | "<" | "<=" | ">" | ">=" | "contains" | "starts with" | "is null" | "is not null";

/** Every filter operator, in the order the page offers them. */
export const FILTER_OPS: readonly FilterOp[] = ["=", "!=", "<", "<=", ">", ">=", "contains", "starts with", "is null", "is not null"];

export interface Filter {
  column: string;
  op: FilterOp;
  /** What the reader typed; numbers are parsed for numeric columns, `true`/`false` for booleans. */
  value: string;
}

export interface BrowseState {
  /** Case-insensitive text searched in every column. */
  search: string;
  filters: readonly Filter[];
  sort: {column: string; direction: "asc" | "desc"} | null;
  /** 0-based page. */
  page: number;
  pageSize: number;
}

export const INITIAL_BROWSE: BrowseState = {search: "", filters: [], sort: null, page: 0, pageSize: 50};

/** A double-quoted identifier. */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** A possibly schema-qualified table name (`ratings`, `pages.ratings`) as SQL. */
export const tableRef = (name: string): string => name.split(".").map(quoteIdent).join(".");

export type ColumnKind = "number" | "boolean" | "text" | "other";

/** How a DuckDB type behaves in filters, display and charts. */
export function columnKind(type: string): ColumnKind {
  const t = type.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|REAL|DOUBLE|DECIMAL(\(.*\))?)$/.test(t)) return "number";
  if (t === "BOOLEAN") return "boolean";
  if (t === "VARCHAR" || t.startsWith("ENUM(")) return "text";
  return "other";
}

/**
 * The select-list entry that shows a column: numbers, booleans and text as they
 * are, everything else (dates, lists, structs, JSON) in DuckDB's own text form,
 * so the page shows what the DuckDB CLI shows.
 */
export function displayExpr(column: ColumnInfo): string {
  const c = quoteIdent(column.name);
  return columnKind(column.type) === "other" ? `CAST(${c} AS VARCHAR) AS ${c}` : c;
}

/** A filter's operand as a bound parameter, or an error a reader can act on. */
function operand(filter: Filter, kind: ColumnKind): unknown {
  const raw = filter.value.trim();
  if (filter.op === "contains" || filter.op === "starts with") return filter.value.toLowerCase();
  if (kind === "number") {
    const n = Number(raw);
    if (raw === "" || !Number.isFinite(n)) throw new Error(`${filter.column} ${filter.op}: ${JSON.stringify(filter.value)} is not a number`);
    return n;
  }
  if (kind === "boolean") {
    if (!/^(true|false)$/i.test(raw)) throw new Error(`${filter.column} ${filter.op}: write true or false`);
    return raw.toLowerCase() === "true";
  }
  return filter.value;
}

/** The condition of one filter and its parameters. */
function filterSql(filter: Filter, columns: readonly ColumnInfo[]): {sql: string; params: unknown[]} {
  const column = columns.find((c) => c.name === filter.column);
  if (!column) throw new Error(`no column ${JSON.stringify(filter.column)} to filter on`);
  const c = quoteIdent(column.name);
  const kind = columnKind(column.type);
  if (filter.op === "is null") return {sql: `${c} IS NULL`, params: []};
  if (filter.op === "is not null") return {sql: `${c} IS NOT NULL`, params: []};
  const value = operand(filter, kind);
  const asText = `lower(CAST(${c} AS VARCHAR))`;
  if (filter.op === "contains") return {sql: `contains(${asText}, ?)`, params: [value]};
  if (filter.op === "starts with") return {sql: `starts_with(${asText}, ?)`, params: [value]};
  // Dates, lists and the like compare in their text form, as the table shows them.
  const left = kind === "other" ? `CAST(${c} AS VARCHAR)` : c;
  return {sql: `${left} ${filter.op} ?`, params: [value]};
}

/** The WHERE clause (or "") of a search and filters, with its parameters in order. */
export function whereClause(columns: readonly ColumnInfo[], state: Pick<BrowseState, "search" | "filters">): {sql: string; params: unknown[]} {
  const parts: string[] = [];
  const params: unknown[] = [];
  const term = state.search.trim().toLowerCase();
  if (term) {
    // Text (and dates, lists, … in their text form) by substring; numbers only when the term is one, by value:
    // turning a million numbers into text to search them costs seconds and finds digits inside other numbers.
    const number = Number(term);
    const checks: string[] = [];
    for (const c of columns) {
      const kind = columnKind(c.type);
      if (kind === "text") checks.push(`contains(lower(${quoteIdent(c.name)}), ?)`), params.push(term);
      else if (kind === "other") checks.push(`contains(lower(CAST(${quoteIdent(c.name)} AS VARCHAR)), ?)`), params.push(term);
      else if (kind === "number" && Number.isFinite(number)) checks.push(`${quoteIdent(c.name)} = ?`), params.push(number);
    }
    parts.push(checks.length ? `(${checks.join(" OR ")})` : "false");
  }
  for (const filter of state.filters) {
    const f = filterSql(filter, columns);
    parts.push(f.sql);
    for (const p of f.params) params.push(p);
  }
  return {sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params};
}

/**
 * ORDER BY the chosen column (NULLs last), then by row id, so that paging is
 * stable and the default is the table's order. `reversed` gives the exact
 * reverse of that order.
 */
export function orderClause(columns: readonly ColumnInfo[], sort: BrowseState["sort"], reversed = false): string {
  const rowid = reversed ? "rowid DESC" : "rowid";
  if (!sort || !columns.some((c) => c.name === sort.column)) return `ORDER BY ${rowid}`;
  const descending = (sort.direction === "desc") !== reversed;
  return `ORDER BY ${quoteIdent(sort.column)} ${descending ? "DESC" : "ASC"} NULLS ${reversed ? "FIRST" : "LAST"}, ${rowid}`;
}

export interface BrowseQuery {
  /** One page of rows: bind `params` then LIMIT and OFFSET (already at the end of `params`). */
  rows: {sql: string; params: unknown[]};
  /** The page came out in reverse order (a page past the middle is read from the end): reverse its rows. */
  reversed: boolean;
  /** How many rows the search and filters keep. */
  count: {sql: string; params: unknown[]};
  /** Every row the search and filters keep, in the chosen order (for downloads). */
  all: {sql: string; params: unknown[]};
}

/**
 * The queries that show one page of `table` under `state`: paging happens in
 * DuckDB, never in JavaScript. When `matching` (the count) is known and the
 * page lies past the middle, the page is read from the other end (the reverse
 * order, a small OFFSET): DuckDB then keeps a small top-N heap instead of
 * sorting every row to skip most of them, so the last page of a million costs
 * what the first does.
 */
export function browseQuery(table: string, columns: readonly ColumnInfo[], state: BrowseState, matching?: number): BrowseQuery {
  const where = whereClause(columns, state);
  const from = `FROM ${tableRef(table)} ${where.sql}`.trim();
  const list = columns.length ? columns.map(displayExpr).join(", ") : "*";
  const offset = state.page * state.pageSize;
  const reversed = matching !== undefined && offset > matching / 2 && offset < matching;
  const limit = reversed ? Math.min(state.pageSize, matching! - offset) : state.pageSize;
  const rowsParams = reversed ? [...where.params, limit, matching! - offset - limit] : [...where.params, limit, offset];
  return {
    rows: {sql: `SELECT ${list} ${from} ${orderClause(columns, state.sort, reversed)} LIMIT ? OFFSET ?`, params: rowsParams},
    reversed,
    count: {sql: `SELECT count(*) AS n ${from}`, params: where.params},
    all: {sql: `SELECT ${columns.length ? columns.map((c) => quoteIdent(c.name)).join(", ") : "*"} ${from} ${orderClause(columns, state.sort)}`, params: where.params},
  };
}

/** The last page that has rows (0 when there are none). */
export const lastPage = (rows: number, pageSize: number): number => Math.max(0, Math.ceil(rows / pageSize) - 1);

/** Where a DuckDB error points in the reader's SQL. */
export interface SqlErrorLocation {
  /** 1-based line and column in the reader's SQL. */
  line: number;
  column: number;
  /** 0-based index into the reader's SQL. */
  offset: number;
}

export interface LocatedSqlError {
  /** The error without DuckDB's context lines, e.g. `Parser Error: syntax error at or near "FORM"`. */
  summary: string;
  location: SqlErrorLocation | null;
  /** DuckDB's own context lines (`LINE n: …` and the caret), numbered as the reader's lines. */
  context: string | null;
}

/**
 * Reads the position out of a DuckDB error message (`LINE n: <context>` and a
 * caret line under it) and maps it onto `sql`, the reader's text. `lineOffset`
 * is how many lines the page put before the reader's SQL when it ran it.
 * DuckDB shows a window of long lines between "..." marks; the window is found
 * in the reader's line to recover the column.
 */
export function locateSqlError(message: string, sql: string, lineOffset = 0): LocatedSqlError {
  const block = /\n\s*\nLINE (\d+): ([^\n]*)\n( *)\^/.exec(message);
  const summary = message.split(/\n\s*\nLINE \d+:/)[0].trim();
  const lines = sql.split("\n");
  const end = (): SqlErrorLocation => ({line: lines.length, column: lines.at(-1)!.length + 1, offset: sql.length});
  // DuckDB names no line when the text stopped too early.
  if (!block) return {summary, location: /at end of input/.test(summary) ? end() : null, context: null};
  const reported = Number(block[1]) - lineOffset;
  if (reported < 1) return {summary, location: null, context: null};
  if (reported > lines.length) {
    // Past the reader's text (the page's closing lines): the SQL ended too early.
    return {summary, location: end(), context: null};
  }
  const prefix = `LINE ${block[1]}: `.length;
  let context = block[2];
  let caret = block[3].length - prefix;
  const renumbered = `LINE ${reported}: `;
  const shown = `${renumbered}${block[2]}\n${" ".repeat(renumbered.length + caret)}^`;
  if (context.startsWith("...")) {
    context = context.slice(3);
    caret -= 3;
  }
  if (context.endsWith("...")) context = context.slice(0, -3);
  const text = lines[reported - 1];
  const start = Math.max(0, text.indexOf(context));
  const column0 = Math.min(Math.max(0, start + caret), text.length);
  const offset = lines.slice(0, reported - 1).reduce((n, l) => n + l.length + 1, 0) + column0;
  return {summary, location: {line: reported, column: column0 + 1, offset}, context: shown};
}

/** The reader's SQL without trailing semicolons and blanks. */
export const trimSql = (sql: string): string => sql.replace(/[\s;]+$/, "");

/** The line and column (1-based) of the 0-based `offset` in `sql`. */
export function locationAt(sql: string, offset: number): SqlErrorLocation {
  const before = sql.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return {line: before.split("\n").length, column: offset - lineStart + 1, offset};
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The tables among `names` that `sql` may use, so that only those are loaded
 * before it runs. A name counts when it appears as a word (quoted or not);
 * `pages.x` names the page data file x. Loading one table too many is harmless.
 */
export function referencedTables(sql: string, names: readonly string[]): string[] {
  return names.filter((name) => {
    const parts = name.split(".");
    const body = parts.map((p) => `"?${escapeRegExp(p)}"?`).join("\\s*\\.\\s*");
    // A bare name qualified by pages. is the page data file, not the store table.
    const notPages = parts.length === 1 ? '(?<!pages\\s*\\.\\s*"?)' : "";
    return new RegExp(`(?<![\\w"])${notPages}${body}(?![\\w"])`, "i").test(sql);
  });
}

/** The SQL name of a page data file (`words-per-turn` → `pages.words_per_turn`). */
export const pageDataTable = (loaderName: string): string => `pages.${loaderName.replaceAll("-", "_")}`;

const fmt = (n: number): string => n.toLocaleString("en-US");

/** The row count of a table as the page states it: "showing N of M" when the site ships fewer rows than the store holds. */
export function rowCountText(shipped: number, total: number): string {
  return shipped < total ? `showing ${fmt(shipped)} of ${fmt(total)} rows` : `${fmt(total)} rows`;
}

/** "Rows a–b of n" (and "filtered from m" when a search or filter is on). */
export function pageStatusText(state: BrowseState, matching: number, all: number): string {
  const filtered = matching === all ? "" : ` (filtered from ${fmt(all)})`;
  if (matching === 0) return `No rows${filtered}.`;
  const first = state.page * state.pageSize + 1;
  const last = Math.min(matching, first + state.pageSize - 1);
  return `Rows ${fmt(first)}–${fmt(last)} of ${fmt(matching)}${filtered}.`;
}

/** How a cell value shows as text: NULL spelled out, numbers in full, anything structured as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** Significant digits a fractional number shows with in the explorer's tables (as printf's %g). */
export const DISPLAY_DIGITS = 6;

/**
 * A number as a table cell shows it: integers whole, fractions rounded to
 * `digits` significant digits without trailing zeros (6.696257197696737 →
 * 6.69626, 0.1 + 0.2 → 0.3). Only the display rounds: DuckDB, SQL, downloads
 * and the cell's title keep the full value.
 */
export function formatNumber(value: number, digits = DISPLAY_DIGITS): string {
  if (!Number.isFinite(value) || Number.isInteger(value)) return String(value);
  // At 10^digits and beyond the rounding reaches the integer part: show it rounded to a whole number rather than in exponent form.
  if (Math.abs(value) >= 10 ** digits && Math.abs(value) < 1e21) return String(Math.round(value));
  return String(Number(value.toPrecision(digits)));
}

/** A cell's shown text, and its full value (for the title) when the shown text rounds it. */
export function cellDisplay(value: unknown): {text: string; full?: string} {
  if (typeof value !== "number") return {text: cellText(value)};
  const text = formatNumber(value);
  const full = String(value);
  return text === full ? {text} : {text, full};
}

/**
 * Where the page fetches a shipped Parquet file (`file`, e.g.
 * `data/tables/ratings.parquet`), found from the address the server gave the
 * manifest (`manifestHref`, FileAttachment's href): `observable preview` serves
 * every data loader's output under `_file/` by its own name
 * (`/_file/data/explorer-manifest.json?sha=…`) and nothing at the fixed
 * address, while a built site gives attachments content-hashed names and puts
 * the dynamicPaths files at their fixed address. Asking the right one first
 * means no 404 in either.
 */
export function shippedFileUrl(file: string, manifestHref: string, pageUrl: string): string {
  const manifest = new URL(manifestHref, pageUrl);
  const preview = manifest.pathname.endsWith(`/_file/${MANIFEST_FILE}`);
  if (preview) return new URL(manifest.pathname.slice(0, -MANIFEST_FILE.length) + file, manifest).href;
  return new URL(file, pageUrl).href;
}

/** The manifest's path under the source root, as the page names it in FileAttachment. */
export const MANIFEST_FILE = "data/explorer-manifest.json";

/**
 * The Arrow IPC stream inside an Arrow IPC file (what DuckDB-wasm returns),
 * for parquet-wasm, which reads streams. A file is the magic "ARROW1" padded to
 * 8 bytes, the stream's messages, a footer, the footer's length (int32) and the
 * magic again; the stream is the part between, closed with an end-of-stream
 * marker in case the writer left it out.
 */
export function ipcFileToStream(file: Uint8Array): Uint8Array {
  const magic = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"
  const starts = magic.every((b, i) => file[i] === b);
  const ends = magic.every((b, i) => file[file.length - 6 + i] === b);
  if (!starts || !ends || file.length < 8 + 10) throw new Error("not an Arrow IPC file");
  const footerLength = new DataView(file.buffer, file.byteOffset + file.length - 10, 4).getInt32(0, true);
  const body = file.subarray(8, file.length - 10 - footerLength);
  const out = new Uint8Array(body.length + 8);
  out.set(body);
  out.set([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0], body.length);
  return out;
}
