// `sociometer audit FILE`: recompute every cell of a reported table from the
// audit CSV and print the verdicts, per table, as text, CSV or JSON.

import {existsSync} from "node:fs";
import {basename} from "node:path";
import {readAuditFile, resolveCells} from "../audit/read.js";
import type {Store} from "../store/db.js";
import {openStoreWhenFree} from "../store/wait-for-lock.js";
import {DEFAULT_MAX_DENOMINATOR, reportedDigits} from "../../src/lib/audit.js";
import {auditTables, denominatorDetail, shown, signed, toleranceText, verdictText, type AuditReport, type CellResult} from "../../src/lib/audit-verdicts.js";
import {render, type OutputFormat} from "./output.js";

export interface AuditCommandOptions {
  dbPath: string;
  format: OutputFormat;
  maxN?: number;
}

/** Runs the audit of `path`: opens the store (read-only) only when a cell has a query. */
export async function auditFile(path: string, {dbPath, maxN}: {dbPath: string; maxN?: number}): Promise<AuditReport> {
  const cells = readAuditFile(path);
  let store: Store | null = null;
  if (cells.some((c) => c.query) && existsSync(dbPath)) store = await openStoreWhenFree(dbPath, {readOnly: true});
  try {
    return auditTables(await resolveCells(cells, path, store), {maxN});
  } finally {
    store?.close();
  }
}


/** "rounded truncated": the printing rules that can give a cell's reported digits. */
const fitsText = (c: CellResult): string => [c.fits.rounded ? "rounded" : "", c.fits.truncated ? "truncated" : ""].filter(Boolean).join(" ");

/** The audit as the CLI prints it. JSON: {title, notes (one sentence per table), tables, rows (one per cell)}. */
export function renderAudit(report: AuditReport, file: string, format: OutputFormat, maxN = DEFAULT_MAX_DENOMINATOR): string {
  const title = `Audit of ${basename(file)}`;
  if (format === "json") {
    return JSON.stringify({title, notes: report.tables.map((t) => t.sentence), options: {maxN}, tables: report.tables, rows: report.cells}, null, 2) + "\n";
  }
  if (format === "csv") {
    const columns = ["line", "table", "row", "column", "formula", "reported", "computed", "verdict", "face_value", "fits", "difference", "tolerance",
      "tolerance_auto", "claimed_n", "count", "count_inferred", "denominator_rounding", "counts_of_claimed_n", "smallest_n", "smallest_counts"];
    const rows = report.cells.map((c) => ({
      ...c, face_value: c.faceValue, fits: fitsText(c), tolerance_auto: c.toleranceAuto, claimed_n: c.claimedN,
      count_inferred: c.claimedN === null ? null : c.countInferred, denominator_rounding: c.denominatorRounding,
      counts_of_claimed_n: c.countsOfClaimedN?.join(" "), smallest_n: c.smallestN, smallest_counts: c.smallestCounts?.join(" "),
    }));
    return render({title, notes: [], columns, rows}, "csv");
  }
  const out = [`${title} (denominators searched up to n = ${maxN.toLocaleString("en-US")}; rounding is half away from zero, truncation toward zero)`, ""];
  for (const t of report.tables) {
    const cells = report.cells.filter((c) => c.table === t.table);
    const shares = cells.some((c) => c.claimedN !== null);
    // With rounded inputs the face value is shown apart from the verdict: it is what the recomputed value alone would say.
    const bounded = cells.some((c) => (c.tolerance ?? 0) > 0);
    const columns = ["row", "column", "formula", "reported", "computed", "verdict", ...(bounded ? ["face value"] : []), "difference", "tolerance",
      ...(shares ? ["denominators"] : [])];
    const rows = cells.map((c) => ({
      row: c.row, column: c.column, formula: c.formula, reported: c.reported,
      // Text, not numbers: two digits past the printed ones show the digit that decides rounding.
      computed: shown(c.computed, reportedDigits(c.reported)), verdict: c.verdict, "face value": (c.tolerance ?? 0) > 0 ? verdictText(c.faceValue) : "",
      difference: signed(c.difference, reportedDigits(c.reported)), tolerance: toleranceText(c), denominators: denominatorDetail(c, {maxN}),
    }));
    const notes = [t.sentence, ...t.sources.map((s) => `source: ${s}`)];
    out.push(render({title: t.table, notes, columns, rows}, "table"));
  }
  return out.join("\n");
}
