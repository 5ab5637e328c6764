// The Compare page's tables: one row per metric (n paired, n unpaired, means,
// difference, intervals, p, adjusted p), the items that changed most with
// links to the episode viewer showing A and B side by side, and the unpaired
// items. Text from logs goes in as textContent only (src/components/dom.ts).

import {sideBySideHref} from "../lib/compare-keys.js";
import type {Comparison} from "../lib/compare.js";
import {sampleFlags} from "../lib/compare-small.js";
import {el, fixed, numCell, pValue, titledText} from "./dom.js";

const id = (metric: string, what: string) => `compare-${metric}-${what}`;

/** The metric table; every number keeps its exact value in data-value for tests and copying. */
export function metricTable(c: Comparison): HTMLTableElement {
  const table = el("table", undefined, "numeric compare-table");
  table.setAttribute("data-testid", "compare-table");
  const head = table.createTHead().insertRow();
  for (const h of ["Metric", "n paired", "n unpaired A", "n unpaired B", "mean A", "mean B", "difference B − A", "interval", "bootstrap interval", "p", "adjusted p", "Wilcoxon p", "test"]) {
    head.append(el("th", h, h === "Metric" || h === "test" ? undefined : "num"));
  }
  const body = table.createTBody();
  for (const m of c.metrics) {
    const tr = body.insertRow();
    tr.append(el("th", m.metric, "dim"));
    const flags = sampleFlags(m);
    const nPaired = numCell(String(m.nPaired), m.nPaired, id(m.metric, "n-paired"));
    if (flags.small) {
      // Beside the number, in words, not a colour alone.
      const mark = el("span", " small sample", "compare-small");
      mark.title = flags.small;
      mark.setAttribute("data-testid", id(m.metric, "small"));
      // Inline, not in style.css: the mark must read loudly on any page that draws this table.
      mark.style.fontWeight = "bold";
      mark.style.color = "#b03a2e";
      nPaired.append(mark);
      nPaired.classList.add("compare-small-n");
    }
    tr.append(nPaired, numCell(String(m.unpairedA), m.unpairedA, id(m.metric, "unpaired-a")),
      numCell(String(m.unpairedB), m.unpairedB, id(m.metric, "unpaired-b")));
    tr.append(numCell(fixed(m.meanA, 3), m.meanA, id(m.metric, "mean-a")), numCell(fixed(m.meanB, 3), m.meanB, id(m.metric, "mean-b")),
      numCell(fixed(m.difference, 3), m.difference, id(m.metric, "difference")));
    const interval = numCell(`${fixed(m.lo, 3)} to ${fixed(m.hi, 3)}`, undefined, id(m.metric, "interval"));
    interval.dataset.lo = String(m.lo);
    interval.dataset.hi = String(m.hi);
    const boot = numCell(`${fixed(m.bootLo, 3)} to ${fixed(m.bootHi, 3)}`, undefined, id(m.metric, "boot"));
    boot.dataset.lo = String(m.bootLo);
    boot.dataset.hi = String(m.bootHi);
    if (flags.weak) {
      for (const cell of [interval, boot]) {
        cell.classList.add("compare-weak-interval");
        cell.style.color = "#888";
        const mark = el("span", ` (${flags.weak}: not informative)`, "compare-weak");
        mark.setAttribute("data-testid", `${cell.getAttribute("data-testid") ?? ""}-weak`);
        cell.append(mark);
      }
    }
    tr.append(interval, boot, numCell(pValue(m.p), m.p, id(m.metric, "p")), numCell(pValue(m.pAdjusted), m.pAdjusted, id(m.metric, "p-adjusted")),
      numCell(pValue(m.pWilcoxon), m.pWilcoxon, id(m.metric, "p-wilcoxon")));
    tr.append(el("td", m.test, "test"));
    if (m.pAdjusted < 0.05) tr.classList.add("significant");
  }
  return table;
}

/** The items that changed most both ways, each linked to the side-by-side viewer. */
export function changedTable(c: Comparison): HTMLTableElement {
  const table = el("table", undefined, "numeric compare-changed");
  table.setAttribute("data-testid", "compare-changed");
  const head = table.createTHead().insertRow();
  for (const h of ["Metric", "", "item", "A", "B", "B − A", "episodes"]) head.append(el("th", h, ["A", "B", "B − A"].includes(h) ? "num" : undefined));
  const body = table.createTBody();
  for (const x of c.changed) {
    const tr = body.insertRow();
    tr.append(el("td", x.metric), el("td", x.direction === "up" ? "▲ rose" : "▼ fell"));
    const item = el("td");
    item.append(titledText(x.item));
    tr.append(item, numCell(fixed(x.a, 2), x.a), numCell(fixed(x.b, 2), x.b), numCell(fixed(x.difference, 2), x.difference));
    const link = el("a", "A and B side by side");
    link.href = sideBySideHref(x.episodeA, x.episodeB);
    const cell = el("td");
    cell.append(link);
    tr.append(cell);
  }
  return table;
}

/** Unpaired items drawn in the page; past this many the rest are in the CSV download, and the page says so. */
export const UNPAIRED_SHOWN = 500;

/** The items on one side only, by metric and side: the first UNPAIRED_SHOWN drawn, every one in the CSV. */
export function unpairedTable(c: Comparison): HTMLElement {
  const box = el("div");
  const table = el("table", undefined, "compare-unpaired");
  table.setAttribute("data-testid", "compare-unpaired");
  const head = table.createTHead().insertRow();
  for (const h of ["Metric", "side", "item", "episode"]) head.append(el("th", h));
  const body = table.createTBody();
  const csv = ["metric,side,item,episode", ...c.unpaired.map((u) => [u.metric, u.side, u.item, u.episode].map(csvField).join(","))].join("\n") + "\n";
  const link = el("a", `download all ${c.unpaired.length} as CSV`);
  link.href = URL.createObjectURL(new Blob([csv], {type: "text/csv"}));
  link.download = "unpaired-items.csv";
  const shown = Math.min(c.unpaired.length, UNPAIRED_SHOWN);
  const note = el("p", shown < c.unpaired.length ? `Showing the first ${shown} of ${c.unpaired.length} unpaired items; ` : `${c.unpaired.length} unpaired items; `);
  note.setAttribute("data-testid", "compare-unpaired-count");
  note.append(link);
  box.append(note, table);
  for (const u of c.unpaired.slice(0, shown)) {
    const tr = body.insertRow();
    const item = el("td");
    item.append(titledText(u.item));
    tr.append(el("td", u.metric), el("td", u.side), item, el("td", u.episode));
  }
  return box;
}

const csvField = (v: string): string => (/[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
