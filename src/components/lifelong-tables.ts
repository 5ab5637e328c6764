// LIFELONG-SOTOPIA tables: the numbers behind the curves, the checkpoint
// validation (Table 1 layout) and mean ± sd per model and memory mode
// (Appendix G Table 2 layout). DOM calls and textContent only, so names from
// logs can never inject markup; every number keeps its exact value in
// data-value and is addressable by data-testid.

import {LABEL_RUNS_NOTE, POSITIVE_CLASS_NOTE, type CurveRow, type LabelRuns, type PositiveClass} from "../lib/lifelong.js";
import type {RangeRow, ValidationRow} from "../client/lifelong.js";
import {el, fixed, headCell, numCell} from "./dom.js";

const numValue = (x: number) => (Number.isNaN(x) ? "NaN" : x);

/**
 * One row per (model, memory mode, chain index): the runs combined, then n and
 * mean [low, high] of BEL, GOAL, BEL of the checklisted instances alone and
 * penalised BEL (the last two over the same instances).
 */
export function curveTable(rows: readonly CurveRow[], {bandLabel}: {bandLabel: string}): HTMLTableElement {
  const table = el("table", undefined, "numeric lifelong-curves");
  table.setAttribute("data-testid", "curve-table");
  const head = table.createTHead();
  const top = head.insertRow();
  top.append(headCell("Model", {rowSpan: 2}), headCell("Memory", {rowSpan: 2}), headCell("Index", {rowSpan: 2, className: "num"}), headCell("Harder", {rowSpan: 2}));
  top.append(headCell("Runs combined", {rowSpan: 2, className: "num"}));
  for (const name of ["BEL", "GOAL", "BEL, checklisted instances", "Penalised BEL"]) top.append(headCell(`${name} (band: ${bandLabel})`, {colSpan: 4, className: "num"}));
  const sub = head.insertRow();
  for (let i = 0; i < 4; i++) sub.append(el("th", "n", "num"), el("th", "mean", "num"), el("th", "low", "num"), el("th", "high", "num"));
  const body = table.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    const id = `curve-${r.model}-${r.memory_mode}-${r.chain_index}`;
    tr.append(el("td", r.model), el("td", r.memory_mode), numCell(String(r.chain_index), r.chain_index), el("td", r.harder ? "yes" : ""),
      numCell(String(r.runs), r.runs, `${id}-runs`));
    for (const [key, point] of [["bel", r.bel], ["goal", r.goal], ["bel_checklisted", r.bel_checklisted], ["penalised", r.penalised]] as const) {
      tr.append(
        numCell(String(point.n), point.n, `${id}-${key}-n`),
        cell(point.mean, `${id}-${key}`),
        cell(point.low, `${id}-${key}-low`),
        cell(point.high, `${id}-${key}-high`),
      );
    }
  }
  return table;
}

function cell(value: number, testId: string, digits = 2): HTMLTableCellElement {
  const td = numCell(fixed(value, digits), undefined, testId);
  td.dataset.value = String(numValue(value));
  return td;
}

/** LIFELONG-SOTOPIA Table 1: TP FP TN FN precision recall F1 per checkpoint. */
export function validationTable(rows: readonly ValidationRow[], {positive, labelRuns}: {positive: PositiveClass; labelRuns: LabelRuns}): HTMLTableElement {
  const table = el("table", undefined, "numeric belext-validation");
  table.setAttribute("data-testid", "belext-table");
  const head = table.createTHead().insertRow();
  head.append(el("th", "Checklist"), el("th", "Checkpoint"), el("th", "n", "num"));
  for (const h of ["TP", "FP", "TN", "FN", "Split (left out)", "Precision", "Recall", "F1"]) head.append(el("th", h, "num"));
  const cap = table.createCaption();
  cap.textContent = `Positive class: ${POSITIVE_CLASS_NOTE[positive]}. Runs: ${LABEL_RUNS_NOTE[labelRuns]}.`;
  // A key that two checklists share is told apart by its checklist.
  const keys = rows.map((r) => r.checkpoint);
  const body = table.createTBody();
  for (const r of rows) {
    const id = `belext-${keys.filter((k) => k === r.checkpoint).length > 1 ? `${r.checklist}:` : ""}${r.checkpoint}`;
    const tr = body.insertRow();
    tr.append(el("td", r.checklist), el("th", r.label, "dim"), numCell(String(r.n), r.n, `${id}-n`));
    for (const k of ["tp", "fp", "tn", "fn", "split"] as const) tr.append(numCell(String(r[k]), r[k], `${id}-${k}`));
    for (const k of ["precision", "recall", "f1"] as const) tr.append(cell(r[k], `${id}-${k}`, 3));
  }
  return table;
}

/** Appendix G Table 2: mean ± sd (and n) of BEL, GOAL and penalised BEL per model and memory mode. */
export function rangeMeansTable(rows: readonly RangeRow[], {variance, from, to}: {variance: string; from: number; to: number}): HTMLTableElement {
  const table = el("table", undefined, "numeric lifelong-range");
  table.setAttribute("data-testid", "range-table");
  const head = table.createTHead().insertRow();
  head.append(el("th", "Model"), el("th", "Memory"));
  for (const h of ["BEL", "GOAL", "Penalised BEL"]) head.append(el("th", `${h}: mean ± ${variance} sd (n), indices ${from}–${to}`, "num"));
  const body = table.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    tr.append(el("td", r.model), el("td", r.memory_mode));
    for (const [key, s] of [["bel", r.bel], ["goal", r.goal], ["penalised", r.penalised]] as const) {
      const td = numCell(s.n === 0 ? "–" : `${fixed(s.mean)} ± ${fixed(s.sd)} (${s.n})`, undefined, `range-${r.model}-${r.memory_mode}-${key}`);
      td.dataset.value = String(numValue(s.mean));
      td.dataset.sd = String(numValue(s.sd));
      td.dataset.n = String(s.n);
      tr.append(td);
    }
  }
  return table;
}
