// SOTOPIA model means in the layout of the paper's Table 2: one row per
// dimension (with its range) and overall, one column group per model with the
// mean, sd and n behind it. Built with DOM calls and textContent only, so
// model names from logs can never inject markup.

import type {Dimension} from "../lib/dimensions.js";
import type {BestModel} from "../lib/sotopia-significance.js";
import {OVERALL, type ModelAggregate} from "../lib/sotopia.js";

export interface SotopiaTableOptions {
  dimensions: readonly Pick<Dimension, "key" | "abbrev" | "name" | "lo" | "hi">[];
  models: readonly string[];
  /** Decimal places shown; the exact value is kept in each cell's data-value. */
  digits?: number;
  /** The best model per dimension (bestModels): its mean is bold, with * when its lead is significant. */
  best?: readonly BestModel[];
  /** Prefix of every data-testid, so a second table on a page (e.g. the SOTOPIA-hard subset) keeps them unique. */
  testIdPrefix?: string;
  /** Where a model's n on a dimension links to: the episode viewer's list of exactly those scored agents (episodeListHref). */
  href?: (model: string, dimension: string) => string;
}

/** Below this n a cell says it rests on few scores (issue 33, item 6). */
export const SMALL_N = 5;

/**
 * An n as a table shows it: a link to its episodes when `href` is given, and
 * "(n < 5)" beside it when it is small, so a mean on three agents does not
 * read like one on three hundred.
 */
export function nContent(n: number, href?: string): Node[] {
  const nodes: Node[] = [];
  if (href) {
    const a = el("a", String(n), "value drill");
    a.href = href;
    a.title = `the ${n} scored agent${n === 1 ? "" : "s"} behind this number, in the episode viewer`;
    nodes.push(a);
  } else {
    nodes.push(el("span", String(n), "value"));
  }
  if (n < SMALL_N) nodes.push(el("small", " (n < 5)", "small-n"));
  return nodes;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** One numeric cell, addressable by tests as `data-testid="<stat>-<model>-<dimension>"`, its exact value in data-value. */
function statCell(stat: "mean" | "sd" | "n", model: string, dimension: string, value: number | undefined, digits: number, prefix: string, href?: string): HTMLTableCellElement {
  const td = el("td", undefined, `num ${stat}`);
  td.setAttribute("data-testid", `${prefix}${stat}-${model}-${dimension}`);
  if (value === undefined || Number.isNaN(value)) {
    td.append(el("span", "–", "value"));
  } else {
    td.dataset.value = String(value);
    if (stat === "n") td.append(...nContent(value, href));
    else td.append(el("span", value.toFixed(digits), "value"));
  }
  return td;
}

/** The table behind the SOTOPIA chart. Missing model × dimension pairs show a dash. */
export function sotopiaMeansTable(rows: readonly ModelAggregate[], options: SotopiaTableOptions): HTMLTableElement {
  const {dimensions, models, digits = 2, testIdPrefix = ""} = options;
  const byKey = new Map(rows.map((r) => [`${r.model}\u0000${r.dimension}`, r]));
  const bestOf = new Map((options.best ?? []).map((b) => [b.dimension, b]));
  const table = el("table", undefined, "numeric sotopia-means");
  table.setAttribute("data-testid", `${testIdPrefix}sotopia-means`);

  const thead = table.createTHead();
  const top = thead.insertRow();
  const dimHead = el("th", "Dimension");
  dimHead.rowSpan = 2;
  const rangeHead = el("th", "Range");
  rangeHead.rowSpan = 2;
  top.append(dimHead, rangeHead);
  const sub = thead.insertRow();
  for (const model of models) {
    const th = el("th", model, "num model");
    th.colSpan = 3;
    th.scope = "colgroup";
    top.append(th);
    sub.append(el("th", "mean", "num"), el("th", "sd", "num"), el("th", "n", "num"));
  }

  const tbody = table.createTBody();
  const overallLo = dimensions.reduce((s, d) => s + d.lo, 0) / dimensions.length;
  const overallHi = dimensions.reduce((s, d) => s + d.hi, 0) / dimensions.length;
  const lines = [
    ...dimensions.map((d) => ({key: d.key, label: `${d.name} (${d.abbrev})`, range: `[${d.lo}, ${d.hi}]`})),
    {key: OVERALL, label: "Overall", range: `[${overallLo.toFixed(2)}, ${overallHi.toFixed(2)}]`},
  ];
  for (const line of lines) {
    const tr = tbody.insertRow();
    tr.dataset.dimension = line.key;
    const th = el("th", line.label, "dim");
    th.scope = "row";
    tr.append(th, el("td", line.range, "range"));
    for (const model of models) {
      const agg = byKey.get(`${model}\u0000${line.key}`);
      const mean = statCell("mean", model, line.key, agg?.mean, digits, testIdPrefix);
      const best = bestOf.get(line.key);
      // A lead of exactly nothing crowns no one (bestModels): each tied mean says so on hover instead.
      if (agg && best?.tied.includes(model)) {
        mean.dataset.tied = "yes";
        mean.title = `tied for the highest mean with ${best.tied.filter((m) => m !== model).join(", ")}: no model is marked best`;
      } else if (agg && best?.best === model) {
        mean.classList.add("best");
        mean.dataset.best = best.significant ? "*" : "yes";
        const p = !best.test ? "" : Number.isNaN(best.test.p)
          ? `; t-test against ${best.second}: p n/a (fewer than two scores, or no variance)`
          : `; t-test against ${best.second}: p = ${best.test.p.toPrecision(2)}`;
        mean.title = `highest mean on this dimension${p}`;
        if (best.significant) mean.append(el("sup", "*", "mark"));
      }
      tr.append(mean, statCell("sd", model, line.key, agg?.sd, digits, testIdPrefix),
        statCell("n", model, line.key, agg?.n, digits, testIdPrefix, agg && options.href ? options.href(model, line.key) : undefined));
    }
  }
  return table;
}
