// Printing result tables as aligned text, CSV or JSON.

import {closest} from "../did-you-mean.js";

export type OutputFormat = "table" | "csv" | "json";

const OUTPUT_FORMATS: readonly OutputFormat[] = ["table", "csv", "json"];

/** The `--format` value of any command (table when absent); a typo gets the format it meant. */
export function outputFormat(value: string | undefined): OutputFormat {
  const format = value ?? "table";
  if ((OUTPUT_FORMATS as readonly string[]).includes(format)) return format as OutputFormat;
  const meant = closest(format, OUTPUT_FORMATS);
  throw new Error(`--format must be table, csv or json, not ${format}${meant ? `; did you mean ${meant}?` : ""}`);
}

export interface ResultTable {
  title: string;
  /** Lines saying which options produced the numbers; printed with the table, kept in JSON. */
  notes: string[];
  columns: string[];
  rows: Record<string, unknown>[];
}

/**
 * One cell as text. `decimals`: the column holds a number that is not whole,
 * so every number in it prints with three decimals (1.000 beside 0.750, not 1);
 * a column of whole numbers (counts) prints them as they are.
 */
const cell = (v: unknown, decimals: boolean): string => {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "n/a";
    if (!Number.isFinite(v)) return String(v);
    if (!decimals) return String(v);
    // Small p-values keep their magnitude instead of printing as 0.000.
    return v !== 0 && Math.abs(v) < 0.001 ? v.toExponential(2) : v.toFixed(3);
  }
  return String(v);
};

const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined || (typeof v === "number" && Number.isNaN(v)) ? "" : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

export function render(t: ResultTable, format: OutputFormat): string {
  if (format === "json") {
    const clean = t.rows.map((r) => Object.fromEntries(t.columns.map((c) => [c, typeof r[c] === "number" && Number.isNaN(r[c]) ? null : r[c] ?? null])));
    return JSON.stringify({title: t.title, notes: t.notes, rows: clean}, null, 2) + "\n";
  }
  if (format === "csv") {
    return [t.columns.map(csvCell).join(","), ...t.rows.map((r) => t.columns.map((c) => csvCell(r[c])).join(","))].join("\n") + "\n";
  }
  const decimals = t.columns.map((c) => t.rows.some((r) => typeof r[c] === "number" && Number.isFinite(r[c]) && !Number.isInteger(r[c])));
  const cells = t.rows.map((r) => t.columns.map((c, i) => cell(r[c], decimals[i]!)));
  // A loop, not Math.max(...cells): a report of 100k rows would overflow the call stack.
  const widths = t.columns.map((c) => c.length);
  for (const row of cells) for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i], cell.length);
  const numeric = t.columns.map((c) => t.rows.every((r) => r[c] === null || r[c] === undefined || typeof r[c] === "number"));
  const line = (row: string[]) => row.map((s, i) => (numeric[i] ? s.padStart(widths[i]) : s.padEnd(widths[i]))).join("  ").trimEnd();
  return [
    t.title,
    ...t.notes.map((n) => `  ${n}`),
    "",
    line(t.columns),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...cells.map(line),
    "",
  ].join("\n");
}
