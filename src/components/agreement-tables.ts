// The agreement page's tables: Pearson / Spearman by who played the rated agent
// (SOTOPIA Table 1, G.1, G.2), differences and perceived-range shares (Figure
// 2, Appendix G.3), and Randolph's kappa (Appendix E.1). DOM calls and
// textContent only; every cell keeps its exact value in data-value.

import {POOLED_CORRELATION_REASON} from "../lib/agreement-labels.js";
import type {AgreementRow} from "../lib/agreement.js";
import {pText, stars} from "../client/agreement.js";
import {el, fixed, headCell, numCell, percent, scrollBox} from "./dom.js";

interface DimensionLine {
  key: string;
  abbrev: string;
  name: string;
}

const PLAYED_BY = [
  {key: "model", label: "agents played by models"},
  {key: "human", label: "agents played by humans"},
  {key: "all", label: "all agents"},
] as const;

const rowLabel = (d: DimensionLine) => (d.key === "all" ? "All dimensions" : `${d.name} (${d.abbrev})`);

const find = (rows: readonly AgreementRow[], dimension: string, played_by: string) =>
  rows.find((r) => r.dimension === dimension && r.played_by === played_by);

/** A cell whose exact value may be NaN: kept as data-value="NaN", shown as "n/a". */
const exact = (text: string, value: number, testId?: string, className?: string) => numCell(text, value, testId, className);

/**
 * SOTOPIA Table 1: per dimension, Pearson's r (** p ≤ 0.01, * p ≤ 0.05), p,
 * n, 95% CI and Spearman's rho, for agents played by models, by humans, and all.
 * The r cells are `data-testid="r-<dimension>-<played_by>"`.
 */
export function correlationTable(rows: readonly AgreementRow[], {dimensions}: {dimensions: readonly DimensionLine[]}): HTMLDivElement {
  const table = el("table", undefined, "numeric agreement-table");
  table.setAttribute("data-testid", "agreement-table");
  const thead = table.createTHead();
  const top = thead.insertRow();
  top.append(headCell("Dimension", {rowSpan: 2}));
  const sub = thead.insertRow();
  for (const g of PLAYED_BY) {
    top.append(headCell(g.label, {colSpan: 5, className: "group"}));
    sub.append(el("th", "r", "num group-start"), el("th", "p", "num"), el("th", "n", "num"), el("th", "95% CI", "num"), el("th", "ρ", "num"));
  }
  const body = table.createTBody();
  for (const d of dimensions) {
    const tr = body.insertRow();
    tr.dataset.dimension = d.key;
    if (d.key === "all") tr.className = "pooled";
    const th = el("th", rowLabel(d), "dim");
    th.scope = "row";
    tr.append(th);
    for (const g of PLAYED_BY) {
      const row = find(rows, d.key, g.key);
      if (!row || row.n === 0) {
        const empty = numCell("–", undefined, `r-${d.key}-${g.key}`, "num group-start muted");
        empty.title = "no instances";
        tr.append(empty, numCell("–"), numCell("0", 0, undefined, "num n"), numCell("–"), numCell("–"));
        continue;
      }
      if (row.pearson === null || row.spearman === null) {
        // Several dimensions pooled: no correlation (src/lib/agreement.ts POOLED_CORRELATION_REASON).
        const pooled = numCell("—", undefined, `r-${d.key}-${g.key}`, "num group-start muted");
        pooled.dataset.pooled = "true";
        pooled.title = `Pearson's r ${POOLED_CORRELATION_REASON}`;
        tr.append(pooled, numCell("—", undefined, undefined, "num muted"), numCell(String(row.n), row.n, undefined, "num n"),
          numCell("—", undefined, undefined, "num muted"), numCell("—", undefined, `rho-${d.key}-${g.key}`, "num muted"));
        continue;
      }
      const {r, p, ci} = row.pearson;
      const rCell = exact(`${fixed(r)}${stars(p)}`, r, `r-${d.key}-${g.key}`, "num group-start r");
      rCell.title = Number.isNaN(r)
        ? `Pearson's r is undefined: one side has no variance (n = ${row.n})`
        : `Pearson's r = ${r.toFixed(4)}, p = ${pText(p)}, n = ${row.n}`;
      tr.append(
        rCell,
        exact(pText(p), p, undefined, "num p"),
        numCell(String(row.n), row.n, undefined, "num n"),
        numCell(Number.isNaN(ci[0]) ? "n/a" : `${fixed(ci[0])} – ${fixed(ci[1])}`, undefined, undefined, "num ci"),
        exact(fixed(row.spearman.r), row.spearman.r, `rho-${d.key}-${g.key}`, "num rho"),
      );
    }
  }
  // Fifteen numeric columns.
  const box = scrollBox(table);
  // With no person in any rated seat the model columns are the all columns again: say so, or the twins read as a bug.
  if (!rows.some((r) => r.played_by === "human" && r.n > 0) && rows.some((r) => r.n > 0)) {
    box.prepend(el("p", "No person played a rated agent in these instances: the columns of agents played by models repeat those of all agents, and those of agents played by humans are empty.", "options"));
  }
  return box;
}

/**
 * Per dimension over all agents: bias (mean of A − B), the share within one sd,
 * and the share of A's scores inside, above and below the human annotators'
 * perceived range (instances with two or more annotators).
 */
export function differencesTable(rows: readonly AgreementRow[], {dimensions}: {dimensions: readonly DimensionLine[]}): HTMLTableElement {
  const table = el("table", undefined, "numeric differences-table");
  table.setAttribute("data-testid", "differences-table");
  const head = table.createTHead().insertRow();
  head.append(el("th", "Dimension"), el("th", "n", "num"), el("th", "bias A − B", "num"), el("th", "within 1 sd", "num"),
    el("th", "ranged n", "num"), el("th", "inside", "num"), el("th", "above", "num"), el("th", "below", "num"));
  const body = table.createTBody();
  for (const d of dimensions) {
    const row = find(rows, d.key, "all");
    if (!row) continue;
    const tr = body.insertRow();
    if (d.key === "all") tr.className = "pooled";
    const th = el("th", rowLabel(d), "dim");
    th.scope = "row";
    tr.append(
      th,
      numCell(String(row.n), row.n, undefined, "num n"),
      exact(Number.isNaN(row.bias) ? "n/a" : `${row.bias >= 0 ? "+" : ""}${row.bias.toFixed(2)}`, row.bias, `bias-${d.key}`),
      exact(percent(row.withinOneSd), row.withinOneSd, `within-${d.key}`),
      numCell(String(row.ranges.n), row.ranges.n, undefined, "num n"),
      exact(percent(row.ranges.inside), row.ranges.inside, `inside-${d.key}`),
      exact(percent(row.ranges.above), row.ranges.above),
      exact(percent(row.ranges.below), row.ranges.below),
    );
  }
  return table;
}

/**
 * Randolph's free-marginal kappa and pairwise agreement P_o per dimension,
 * among the human annotators and with rater A as one more rater, over all agents.
 */
export function kappaTable(rows: readonly AgreementRow[], {dimensions, bins}: {dimensions: readonly DimensionLine[]; bins: number}): HTMLTableElement {
  const table = el("table", undefined, "numeric kappa-table");
  table.setAttribute("data-testid", "kappa-table");
  const thead = table.createTHead();
  const top = thead.insertRow();
  top.append(headCell("Dimension", {rowSpan: 2}));
  top.append(headCell(`human annotators (k = ${bins} bins)`, {colSpan: 3, className: "group"}), headCell(`humans and A (k = ${bins} bins)`, {colSpan: 3, className: "group"}));
  const sub = thead.insertRow();
  for (let i = 0; i < 2; i++) sub.append(el("th", "items", "num group-start"), el("th", "κ", "num"), el("th", "P_o", "num"));
  const body = table.createTBody();
  for (const d of dimensions) {
    const row = find(rows, d.key, "all");
    if (!row) continue;
    const tr = body.insertRow();
    if (d.key === "all") tr.className = "pooled";
    const th = el("th", rowLabel(d), "dim");
    th.scope = "row";
    tr.append(th);
    for (const [which, k] of [["humans", row.kappaHumans], ["with-a", row.kappaWithJudge]] as const) {
      tr.append(
        numCell(String(k.items), k.items, undefined, "num n group-start"),
        exact(fixed(k.kappa, 3), k.kappa, `kappa-${which}-${d.key}`),
        exact(Number.isNaN(k.pairwiseAgreement) ? "n/a" : percent(k.pairwiseAgreement), k.pairwiseAgreement, `po-${which}-${d.key}`),
      );
    }
  }
  return table;
}
