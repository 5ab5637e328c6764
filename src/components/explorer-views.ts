// The table explorer's widgets: the list of tables, a paged table with search,
// filters, sorting and downloads, the table picker, and the SQL box with its
// located errors, result and default chart. Every value from the data goes in
// through textContent (dom.ts), never as markup.

import {rowCountText, cellDisplay, DISPLAY_DIGITS, FILTER_OPS, INITIAL_BROWSE, lastPage, pageStatusText, columnKind, trimSql, type BrowseState, type ColumnInfo, type Filter, type FilterOp} from "../client/explorer.js";
import {RESULT_TABLE, type Explorer, type ExplorerTable, type RunOutcome} from "../client/explorer-db.js";
import type {Row} from "../client/duckdb.js";
import {details, el, textBlock} from "./dom.js";
import {chooseChart, explorerChartSpec, NO_CHART} from "./explorer-chart.js";
import {renderVega} from "./vega.js";

/** The most result rows a chart draws (the first in the result's order); the note under it says so. */
export const CHART_ROWS = 5000;

const fmt = (n: number): string => n.toLocaleString("en-US");

/** Says under a table that fractions are rounded for display only. */
export const ROUNDING_NOTE = `Fractional numbers show ${DISPLAY_DIGITS} significant digits; hover a cell for its full value. SQL, filters and downloads use the full values.`;

/** A table cell for `value`: rounded for display, the full value in its title when rounding changed it. */
function valueCell(value: unknown, className?: string): HTMLTableCellElement {
  const {text, full} = cellDisplay(value);
  const td = el("td", text, className);
  if (full !== undefined) td.title = full;
  return td;
}

function button(text: string, onClick: () => void, testId?: string): HTMLButtonElement {
  const b = el("button", text);
  b.type = "button";
  if (testId) b.setAttribute("data-testid", testId);
  b.addEventListener("click", onClick);
  return b;
}

function labelled<T extends HTMLElement>(label: string, control: T): HTMLLabelElement {
  const l = el("label", undefined, "explorer-control");
  control.setAttribute("aria-label", label);
  l.append(el("span", label), control);
  return l;
}

function select(options: readonly {value: string; text: string}[], value: string): HTMLSelectElement {
  const s = el("select");
  for (const o of options) {
    const option = el("option", o.text);
    option.value = o.value;
    s.append(option);
  }
  s.value = value;
  return s;
}

/** What the list says about a table's rows. */
function rowsText(t: ExplorerTable): string {
  if (t.kind === "store" && t.storeRows !== undefined && t.rows !== undefined) return rowCountText(t.rows, t.storeRows);
  return t.rows === undefined ? "loads when opened" : `${fmt(t.rows)} rows`;
}

/** One line per column: `name TYPE`, with the store's type and a note where shipping changed it. */
function columnsText(t: ExplorerTable): string {
  if (!t.columns) return "columns listed once loaded";
  return t.columns.map((c) => {
    const note = t.notes?.get(c.name);
    const store = note && note.storeType !== c.type ? ` (${note.storeType} in the store)` : "";
    return `${c.name} ${c.type}${store}`;
  }).join(", ");
}

/**
 * The list of every table: name, where it comes from, rows (with "showing N
 * of M"), columns and types, and what the site left out; folded away, since
 * the picker is how a table is chosen. Re-drawn when tables load or appear.
 */
export function tablesPanel(explorer: Explorer): HTMLElement {
  const root = el("div", undefined, "explorer-tables");
  const draw = () => {
    const table = el("table");
    const head = el("tr");
    for (const h of ["Table", "From", "Rows", "Columns"]) head.append(el("th", h));
    table.append(el("thead"), el("tbody"));
    table.tHead!.append(head);
    for (const t of explorer.tables) {
      const tr = el("tr");
      tr.setAttribute("data-testid", `table-${t.name}`);
      const rows = el("td", rowsText(t), "rows");
      rows.setAttribute("data-testid", `rows-${t.name}`);
      tr.append(el("td", t.name, "name"), el("td", t.kind), rows, el("td", columnsText(t), "columns"));
      table.tBodies[0].append(tr);
    }
    const withheld = explorer.tables.flatMap((t) => (t.withheld ?? []).map((w) => `${t.name}.${w.name} (${w.storeType}): ${w.reason}`));
    const notes = explorer.tables.flatMap((t) => [...(t.notes ?? [])].filter(([, n]) => n.note).map(([c, n]) => `${t.name}.${c}: ${n.note}`));
    const redacted = explorer.tables.filter((t) => (t.redactedCells ?? 0) > 0).map((t) => `${t.name}: ${fmt(t.redactedCells!)} cells`);
    const list = (items: string[], testId: string) => {
      const ul = el("ul");
      ul.setAttribute("data-testid", testId);
      for (const item of items) ul.append(el("li", item));
      return ul;
    };
    root.replaceChildren(
      table,
      textBlock("Columns not shipped, so that no credential reaches the site:"),
      withheld.length ? list(withheld, "withheld-columns") : textBlock("none in this store.", "withheld-columns"),
      ...(notes.length ? [textBlock("Columns shipped in another form:"), list(notes, "reduced-columns")] : []),
      textBlock(redacted.length
        ? `Text that looked like an API key or token was replaced by "[redacted]" in ${redacted.join("; ")}.`
        : "No text value looked like an API key or token; had one, it would show as \"[redacted]\".", "redaction-note"),
    );
  };
  draw();
  explorer.onChange(draw);
  return details("Every table with its rows and columns, and the columns the site leaves out", root, "explorer-tables");
}

/** Saves `bytes` as a file through a temporary object URL (nothing is uploaded). */
function saveBytes(bytes: Uint8Array, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], {type}));
  const a = el("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export interface TableView {
  element: HTMLElement;
  /** Shows another table (or the same one afresh), with search, filters, sort and page reset. */
  show(name: string): Promise<void>;
}

/**
 * A paged view of one table: a search box, filters (column, operator, value),
 * sorting by a column header (ascending, descending, off), page size and
 * pager, and CSV / Parquet downloads of every matching row. Each change runs
 * one page's query in DuckDB; no table is ever read whole into JavaScript.
 */
export function tableView(explorer: Explorer, testId: string): TableView {
  let name = "";
  let state: BrowseState = INITIAL_BROWSE;
  let columns: ColumnInfo[] = [];
  let matching = 0;
  let request = 0;

  const root = el("div", undefined, "explorer-view");
  root.setAttribute("data-testid", testId);
  const search = el("input");
  search.type = "search";
  search.placeholder = "Search every column…";
  const filterColumn = el("select");
  const filterOp = select(FILTER_OPS.map((o) => ({value: o, text: o})), "=");
  const filterValue = el("input");
  filterValue.placeholder = "value";
  const filtersList = el("div", undefined, "explorer-filters");
  filtersList.setAttribute("data-testid", `${testId}-filters`);
  const pageSize = select([25, 50, 100, 250].map((n) => ({value: String(n), text: String(n)})), String(INITIAL_BROWSE.pageSize));
  const status = textBlock("", `${testId}-status`, "explorer-status");
  const message = textBlock("", `${testId}-message`, "explorer-message");
  const truncation = textBlock("", `${testId}-truncation`, "explorer-truncation");
  const tableHolder = el("div", undefined, "explorer-table-holder");
  const roundingNote = textBlock(ROUNDING_NOTE, `${testId}-rounding-note`, "explorer-note");
  const pager = el("div", undefined, "explorer-pager");
  const first = button("« First", () => go(0), `${testId}-first`);
  const prev = button("‹ Previous", () => go(state.page - 1), `${testId}-prev`);
  const next = button("Next ›", () => go(state.page + 1), `${testId}-next`);
  const last = button("Last »", () => go(lastPage(matching, state.pageSize)), `${testId}-last`);
  pager.append(first, prev, next, last, labelled("Rows per page", pageSize));
  const downloads = el("div", undefined, "explorer-downloads");
  downloads.append(
    button("Download CSV", () => void save("csv"), `${testId}-csv`),
    button("Download Parquet", () => void save("parquet"), `${testId}-parquet`),
  );
  const filterBar = el("div", undefined, "explorer-filter-bar");
  filterBar.append(
    labelled("Filter column", filterColumn), labelled("Operator", filterOp), labelled("Value", filterValue),
    button("Add filter", addFilter, `${testId}-add-filter`),
  );
  root.append(labelled("Search", search), filterBar, filtersList, truncation, status, message, tableHolder, roundingNote, pager, downloads);

  const update = (change: Partial<BrowseState>) => {
    state = {...state, ...change};
    void refresh();
  };
  function go(page: number) {
    update({page: Math.min(Math.max(0, page), lastPage(matching, state.pageSize))});
  }
  function addFilter() {
    const filter: Filter = {column: filterColumn.value, op: filterOp.value as FilterOp, value: filterValue.value};
    update({filters: [...state.filters, filter], page: 0});
  }
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  search.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => update({search: search.value, page: 0}), 200);
  });
  pageSize.addEventListener("change", () => update({pageSize: Number(pageSize.value), page: 0}));
  filterValue.addEventListener("keydown", (e) => {
    if (e.key === "Enter") addFilter();
  });

  async function save(format: "csv" | "parquet") {
    message.textContent = `Preparing ${format.toUpperCase()} of ${fmt(matching)} rows…`;
    try {
      const bytes = await explorer.download(name, state, format);
      saveBytes(bytes, `${name.replaceAll(".", "_")}.${format}`, format === "csv" ? "text/csv" : "application/vnd.apache.parquet");
      message.textContent = `Saved ${fmt(matching)} rows as ${format.toUpperCase()} (${fmt(bytes.length)} bytes).`;
    } catch (e) {
      message.textContent = `Download failed: ${(e as Error).message}`;
    }
  }

  function drawFilters() {
    filtersList.replaceChildren(...state.filters.map((f, i) => {
      const chip = el("span", undefined, "explorer-filter");
      const text = f.op === "is null" || f.op === "is not null" ? `${f.column} ${f.op}` : `${f.column} ${f.op} ${f.value}`;
      chip.append(el("span", text), button("×", () => update({filters: state.filters.filter((_, j) => j !== i), page: 0}), `${testId}-remove-filter-${i}`));
      return chip;
    }));
  }

  function drawColumns() {
    const current = filterColumn.value;
    filterColumn.replaceChildren(...columns.map((c) => {
      const o = el("option", `${c.name} (${c.type})`);
      o.value = c.name;
      return o;
    }));
    if (columns.some((c) => c.name === current)) filterColumn.value = current;
  }

  function drawTable(rows: readonly Row[]) {
    const table = el("table", undefined, "explorer-grid");
    table.setAttribute("data-testid", `${testId}-table`);
    const head = el("tr");
    for (const c of columns) {
      const sorted = state.sort?.column === c.name ? state.sort.direction : null;
      const th = el("th");
      th.setAttribute("aria-sort", sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none");
      if (columnKind(c.type) === "number") th.className = "num";
      const b = button(`${c.name}${sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : ""}`, () => {
        // Ascending, then descending, then the table's own order.
        const sort = sorted === null ? {column: c.name, direction: "asc" as const} : sorted === "asc" ? {column: c.name, direction: "desc" as const} : null;
        update({sort, page: 0});
      }, `${testId}-sort-${c.name}`);
      b.title = `${c.type}: sort`;
      th.append(b);
      head.append(th);
    }
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    for (const row of rows) {
      const tr = el("tr");
      for (const c of columns) {
        const value = row[c.name];
        tr.append(valueCell(value, value === null || value === undefined ? "null" : columnKind(c.type) === "number" ? "num" : undefined));
      }
      tbody.append(tr);
    }
    table.append(thead, tbody);
    tableHolder.replaceChildren(table);
  }

  async function refresh() {
    const mine = ++request;
    drawFilters();
    message.textContent = "";
    try {
      const page = await explorer.browse(name, state);
      if (mine !== request) return; // a newer request is on its way
      columns = page.columns;
      matching = page.matching;
      drawColumns();
      drawTable(page.rows);
      status.textContent = pageStatusText(state, page.matching, page.all);
      status.dataset.matching = String(page.matching);
      status.dataset.page = String(state.page);
      const t = explorer.table(name);
      truncation.textContent = t?.kind === "store" && t.storeRows !== undefined && t.rows !== undefined && t.rows < t.storeRows
        ? `This table is ${rowCountText(t.rows, t.storeRows)}: the site ships at most ${fmt(explorer.manifest.rowLimit)} rows of a table, the first in the store's order. Searches, filters and SQL here see only those; the CLI sees them all.`
        : "";
      first.disabled = prev.disabled = state.page === 0;
      next.disabled = last.disabled = state.page >= lastPage(page.matching, state.pageSize);
    } catch (e) {
      if (mine !== request) return;
      message.textContent = (e as Error).message;
      // Rows of the previous search or filter would read as this one's.
      tableHolder.replaceChildren();
      status.textContent = "";
      delete status.dataset.matching;
    }
  }

  return {
    element: root,
    async show(table: string) {
      name = table;
      state = {...INITIAL_BROWSE, pageSize: state.pageSize};
      search.value = "";
      filterValue.value = "";
      await refresh();
    },
  };
}

/** The picker's groups, in order. */
const PICKER_GROUPS: readonly {kind: ExplorerTable["kind"]; label: string}[] = [
  {kind: "store", label: "Store tables"},
  {kind: "page data", label: "The pages' tables (schema pages)"},
  {kind: "created here", label: "Made in this page"},
];

/** Pick a table from a compact list grouped by where tables come from, see its size and columns in one line, and browse it. */
export function browserPanel(explorer: Explorer, initial: string): HTMLElement {
  const root = el("div", undefined, "explorer-browser");
  const view = tableView(explorer, "browser");
  const picker = el("select");
  const info = textBlock("", "browser-table-info", "explorer-note");
  const drawPicker = () => {
    const current = picker.value || initial;
    picker.replaceChildren(...PICKER_GROUPS.map(({kind, label}) => {
      const group = el("optgroup");
      group.label = label;
      for (const t of explorer.tables) {
        if (t.kind !== kind) continue;
        const o = el("option", `${t.name} · ${rowsText(t)}`);
        o.value = t.name;
        group.append(o);
      }
      return group;
    }).filter((group) => group.children.length > 0));
    picker.value = current;
    const t = explorer.table(picker.value);
    info.textContent = t ? `${t.name} (${t.kind}), ${rowsText(t)}. Columns: ${columnsText(t)}.` : "";
  };
  drawPicker();
  explorer.onChange(drawPicker);
  picker.addEventListener("change", () => {
    drawPicker();
    void view.show(picker.value);
  });
  root.append(labelled("Table", picker), info, view.element);
  void view.show(picker.value);
  return root;
}

/** The reader's SQL shown as text with the character DuckDB points at marked (or the end, when it points past it). */
function markedSql(sql: string, offset: number): HTMLElement {
  const pre = el("pre", undefined, "explorer-sql-marked");
  pre.setAttribute("data-testid", "sql-error-marked");
  const mark = el("mark", sql.slice(offset, offset + 1).replace("\n", " ") || " ");
  mark.setAttribute("data-testid", "sql-error-mark");
  mark.dataset.offset = String(offset);
  pre.append(document.createTextNode(sql.slice(0, offset)), mark, document.createTextNode(sql.slice(offset + 1)));
  return pre;
}

/** The SQL box: Run (or Ctrl/⌘-Enter), a located error, the result to page through and download, and the default chart. */
export function sqlPanel(explorer: Explorer, initialSql: string): HTMLElement {
  const root = el("div", undefined, "explorer-sql");
  const box = el("textarea");
  box.value = initialSql;
  box.rows = 6;
  box.spellcheck = false;
  box.setAttribute("aria-label", "SQL");
  box.setAttribute("data-testid", "sql-input");
  const run = button("Run", () => void execute(), "sql-run");
  const status = textBlock("", "sql-status", "explorer-status");
  const error = el("div", undefined, "explorer-error");
  error.setAttribute("data-testid", "sql-error");
  error.hidden = true;
  const result = tableView(explorer, "result");
  result.element.hidden = true;
  const statementResult = el("div");
  const chart = el("div", undefined, "explorer-chart");
  chart.setAttribute("data-testid", "sql-chart");
  box.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void execute();
    }
  });
  root.append(box, run, status, error, result.element, statementResult, chart);

  function showError(outcome: Extract<RunOutcome, {ok: false}>, sql: string) {
    const {summary, location} = outcome.error;
    const where = location ? `Line ${location.line}, column ${location.column}: ` : "";
    const head = el("p", `${where}${summary}`, "explorer-error-summary");
    head.setAttribute("data-testid", "sql-error-summary");
    if (location) {
      head.dataset.line = String(location.line);
      head.dataset.column = String(location.column);
    }
    const parts: Node[] = [head];
    if (location) parts.push(markedSql(sql, location.offset));
    if (outcome.error.context) {
      // DuckDB's own context lines, renumbered to the reader's lines (the page runs a query inside a wrapper).
      const pre = el("pre", outcome.error.context, "explorer-error-context");
      pre.setAttribute("data-testid", "sql-error-context");
      parts.push(el("p", "DuckDB's context:"), pre);
    }
    error.replaceChildren(...parts);
    error.hidden = false;
  }

  async function drawChart(columns: ColumnInfo[], rows: number, width: number) {
    const choice = chooseChart(columns);
    if (!choice) {
      chart.replaceChildren(textBlock(NO_CHART, "chart-note"));
      return;
    }
    const sample = await explorer.sample(RESULT_TABLE, CHART_ROWS);
    const note = rows > CHART_ROWS ? `The chart draws the first ${fmt(CHART_ROWS)} of ${fmt(rows)} rows.` : "";
    chart.replaceChildren(await renderVega(explorerChartSpec(choice, sample, width)), ...(note ? [textBlock(note, "chart-note")] : []));
  }

  /** Takes the last result, statement output and chart off the page. */
  function clearResult() {
    result.element.hidden = true;
    statementResult.replaceChildren();
    chart.replaceChildren();
    delete status.dataset.rows;
  }

  let finishedRuns = 0;
  async function execute() {
    const sql = box.value;
    run.disabled = true;
    status.textContent = "Running…";
    error.hidden = true;
    error.replaceChildren();
    try {
      const outcome = await explorer.run(sql);
      if (!outcome.ok) {
        // The previous result must not look like this query's answer.
        clearResult();
        status.textContent = "The query failed; no result is shown.";
        showError(outcome, trimSql(sql));
        return;
      }
      const ms = `${Math.round(outcome.ms).toLocaleString("en-US")} ms`;
      if (outcome.kind === "query") {
        statementResult.replaceChildren();
        result.element.hidden = false;
        await result.show(RESULT_TABLE);
        // Set once the first page is on screen: the status is what says the result is there.
        status.textContent = `${fmt(outcome.rows)} ${outcome.rows === 1 ? "row" : "rows"} in ${ms}, kept as the table ${RESULT_TABLE} for this page.`;
        status.dataset.rows = String(outcome.rows);
        await drawChart(outcome.columns, outcome.rows, Math.max(280, Math.min(root.clientWidth || 640, 900) - 80));
      } else {
        status.textContent = `Statement ran in ${ms}.${outcome.total > outcome.rows.length ? ` Showing the first ${fmt(outcome.rows.length)} of ${fmt(outcome.total)} rows it returned.` : ""}`;
        result.element.hidden = true;
        chart.replaceChildren();
        const table = el("table", undefined, "explorer-grid");
        table.setAttribute("data-testid", "statement-table");
        const head = el("tr");
        for (const c of outcome.columns) head.append(el("th", c.name));
        table.append(head);
        for (const row of outcome.rows) {
          const tr = el("tr");
          for (const c of outcome.columns) tr.append(valueCell(row[c.name]));
          table.append(tr);
        }
        statementResult.replaceChildren(table, textBlock(ROUNDING_NOTE, "statement-rounding-note", "explorer-note"));
      }
    } catch (e) {
      clearResult();
      status.textContent = `The query failed: ${(e as Error).message}`;
    } finally {
      run.disabled = false;
      // Counts finished runs, so that two runs ending in the same status can be told apart.
      status.dataset.runs = String(++finishedRuns);
    }
  }
  return root;
}
