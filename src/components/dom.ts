// Small DOM helpers shared by the table components. Text only ever goes in
// through textContent, so names and texts from logs can never inject markup.

/** An element with optional text (set as textContent) and class. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** A paragraph of plain text, addressable as `data-testid`. */
export function textBlock(text: string, testId?: string, className?: string): HTMLParagraphElement {
  const p = el("p", text, className);
  if (testId) p.setAttribute("data-testid", testId);
  return p;
}

/** `content` in a box that scrolls sideways when it is wider than the page: on a narrow screen a wide table or chart scrolls, not the page. */
export function scrollBox(content: Node): HTMLDivElement {
  const box = el("div", undefined, "table-scroll");
  box.append(content);
  return box;
}

/** A collapsed `<details>` holding `content` under a `summary` line: the table behind a chart, one click away. */
export function details(summary: string, content: Node, testId?: string): HTMLDetailsElement {
  const d = el("details", undefined, "behind");
  if (testId) d.setAttribute("data-testid", testId);
  d.append(el("summary", summary), content);
  return d;
}

/**
 * A collapsed `<details>` whose content is loaded the first time it is opened:
 * for lists that grow with the store, which the page must not fetch before its
 * first view. `load` fills the body; a failure is shown in it as text.
 */
export function detailsOnOpen(summary: string, testId: string, load: (body: HTMLElement) => Promise<void>): HTMLDetailsElement {
  const body = el("div", "Loading…");
  const d = details(summary, body, testId);
  let started = false;
  d.addEventListener("toggle", () => {
    if (!d.open || started) return;
    started = true;
    load(body).catch((e: unknown) => body.replaceChildren(textBlock(`Could not load this list: ${e instanceof Error ? e.message : String(e)}`, `${testId}-error`)));
  });
  return d;
}

/** A number with `digits` decimals; "n/a" for NaN, "–" for a missing value. */
export function fixed(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined) return "–";
  if (Number.isNaN(value)) return "n/a";
  return value.toFixed(digits);
}

/** A p-value: three decimals, or two significant digits in exponent form below 0.001 so small values keep their size. */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined) return "–";
  if (Number.isNaN(p)) return "n/a";
  if (p === 0) return "≈ 0"; // below the smallest double, or an exact fit
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

/** A share as a percentage with one decimal. */
export function percent(share: number): string {
  return Number.isNaN(share) ? "n/a" : `${(share * 100).toFixed(1)}%`;
}

/** A numeric table cell that keeps the exact value in data-value and is addressable as data-testid. */
export function numCell(text: string, value?: number, testId?: string, className = "num"): HTMLTableCellElement {
  const td = el("td", text, className);
  if (value !== undefined) td.dataset.value = String(value);
  if (testId) td.setAttribute("data-testid", testId);
  return td;
}

/** A header cell spanning `span` columns or rows. */
export function headCell(text: string, {colSpan = 1, rowSpan = 1, className}: {colSpan?: number; rowSpan?: number; className?: string} = {}): HTMLTableCellElement {
  const th = el("th", text, className);
  th.colSpan = colSpan;
  th.rowSpan = rowSpan;
  return th;
}

/**
 * Inputs.table's `rows` for a table that shows all its rows up to `cap` and
 * scrolls past it: its default (11.5 rows in a 274 px box) hid most of a
 * short table behind a scroll bar of its own.
 */
export function rowsShown(count: number, cap = 40): number {
  return Math.min(Math.max(count, 1), cap) + 0.5;
}

/** A table cell's text that keeps its whole value in a tooltip when the column cuts it short. */
export function titledText(text: string | null | undefined): HTMLSpanElement {
  const span = el("span", text ?? "");
  if (text) span.title = text;
  return span;
}

/**
 * Records on the page which kinds of data the store lacks, as words of
 * `data-absent` on <body>; style.css hides every `.needs-<kind>` block for an
 * absent kind, so a page shows no controls, tables or charts for data it has not got.
 */
export function markAbsent(kinds: Record<string, boolean>): void {
  const absent = Object.entries(kinds).filter(([, missing]) => missing).map(([kind]) => kind);
  document.body.dataset.absent = absent.join(" ");
}
