// The tables behind the SOTOPIA page's other views: the model × partner matrix
// (Figure 3 / G.4), the comparison of (model, partner) groups with a reference
// group (Table 3), the SOTOPIA-hard task list (§7) and words per turn (§7).
// DOM calls and textContent only: model names and task ids come from logs.

import type {PairCell} from "../lib/sotopia.js";
import {sdOf} from "../lib/stats.js";
import type {ComparedCell} from "../lib/sotopia-significance.js";
import {groupKey, type DimensionChoice, type GroupKey, type WordsPerTurnRow} from "../client/sotopia.js";
import {taskLabel, type HardTask, type TaskInfo} from "../lib/sotopia.js";
import {el, fixed, numCell} from "./dom.js";
import {nContent} from "./sotopia-table.js";
import {pText} from "../lib/agreement.js";

/** "model with partner", how a (model, partner) group is named everywhere on the page. */
export const groupLabel = (g: GroupKey): string => `${g.model} with ${g.partner || "no partner"}`;

/**
 * The matrix as a table: one row per (model, partner) cell with mean, sd and
 * n; each n links to its scored agents in the episode viewer when `href` is given.
 */
export function pairMatrixTable(cells: readonly PairCell[], {digits = 2, href}: {digits?: number; href?: (model: string, partner: string) => string} = {}): HTMLTableElement {
  const table = el("table", undefined, "numeric pair-matrix");
  table.setAttribute("data-testid", "pair-matrix-table");
  const head = table.createTHead().insertRow();
  head.append(el("th", "Model"), el("th", "Partner"), el("th", "mean", "num"), el("th", "sd", "num"), el("th", "n", "num"));
  const body = table.createTBody();
  for (const c of cells) {
    const tr = body.insertRow();
    tr.append(el("td", c.model), el("td", c.partner || "–"));
    const sd = sdOf(c.moments);
    tr.append(
      numCell(fixed(c.mean, digits), c.mean, `pair-mean-${c.model}-${c.partner}`),
      numCell(fixed(sd, digits), sd),
      nCell(c.n, `pair-n-${c.model}-${c.partner}`, href?.(c.model, c.partner)),
    );
  }
  return table;
}

/** An n cell: the number as a link to its episodes, "(n < 5)" beside a small one. */
function nCell(n: number, testId: string, href?: string): HTMLTableCellElement {
  const td = numCell("", n, testId, "num n");
  td.append(...nContent(n, href));
  return td;
}

/**
 * SOTOPIA Table 3: one row per (model, partner) group, one column per
 * dimension; a mean is marked * when Student's t-test against the reference
 * group on that dimension gives p < 0.05, and its p-value shows on hover.
 */
export function referenceComparisonTable(
  groups: readonly GroupKey[],
  byDimension: ReadonlyMap<string, ReadonlyMap<string, ComparedCell>>,
  {dimensions, reference, digits = 2, href}: {
    dimensions: readonly DimensionChoice[];
    reference: GroupKey | null;
    digits?: number;
    /** Where a group's mean on a dimension links to: its scored agents in the episode viewer. */
    href?: (group: GroupKey, dimension: string) => string;
  },
): HTMLTableElement {
  const table = el("table", undefined, "numeric reference-comparison");
  table.setAttribute("data-testid", "reference-comparison");
  const head = table.createTHead().insertRow();
  head.append(el("th", "Group (model with partner)"));
  for (const d of dimensions) {
    const th = el("th", d.abbrev, "num");
    th.title = `${d.name} [${fixed(d.lo)}, ${fixed(d.hi)}]`;
    head.append(th);
  }
  const body = table.createTBody();
  for (const g of groups) {
    const tr = body.insertRow();
    const isReference = reference !== null && g.model === reference.model && g.partner === reference.partner;
    if (isReference) tr.className = "reference";
    const th = el("th", groupLabel(g));
    th.scope = "row";
    if (isReference) th.append(el("span", " (reference)", "muted"));
    tr.append(th);
    for (const d of dimensions) {
      const c = byDimension.get(d.key)?.get(groupKey(g));
      const td = numCell(c && href ? "" : c ? fixed(c.mean, digits) : "–", c?.mean, `t3-${g.model}-${g.partner}-${d.key}`);
      if (c && href) {
        const a = el("a", fixed(c.mean, digits), "drill");
        a.href = href(g, d.key);
        td.append(a);
      }
      if (c && c.n < 5) td.append(el("small", " (n < 5)", "small-n"));
      if (c) {
        td.dataset.n = String(c.n);
        if (c.isReference) td.title = `reference group, n = ${c.n}`;
        else if (!c.test) td.title = `n = ${c.n}; no reference score on this dimension`;
        else {
          td.dataset.p = String(c.test.p);
          td.title = `n = ${c.n}; Student's t-test against ${reference ? groupLabel(reference) : "the reference"}: p = ${pText(c.test.p)}`;
        }
        if (c.significant) {
          td.dataset.significant = "*";
          td.append(el("sup", "*", "mark"));
        }
      }
      tr.append(td);
    }
  }
  return table;
}

/** The SOTOPIA-hard selection, hardest first: each task by codename and characters, its id under them. */
export function hardTasksTable(tasks: readonly HardTask[], {digits = 2, names = new Map()}: {digits?: number; names?: ReadonlyMap<string, TaskInfo>} = {}): HTMLTableElement {
  const table = el("table", undefined, "numeric hard-tasks");
  table.setAttribute("data-testid", "hard-tasks");
  const head = table.createTHead().insertRow();
  head.append(el("th", "#", "num"), el("th", "Task: scenario codename, characters (task id)"), el("th", "difficulty", "num"), el("th", "upper", "num"),
    el("th", "lower", "num"), el("th", "target mean", "num"), el("th", "target n", "num"));
  const body = table.createTBody();
  tasks.forEach((t, i) => {
    const tr = body.insertRow();
    const task = el("td", undefined, "task");
    task.setAttribute("data-testid", `hard-task-${i}`);
    task.append(el("span", taskLabel(names.get(t.task_id), t.task_id), "task-name"), el("br"), el("small", t.task_id, "muted task-id"));
    tr.append(numCell(String(i + 1)), task, numCell(fixed(t.difficulty, digits), t.difficulty, `hard-difficulty-${i}`),
      numCell(fixed(t.upper, digits), t.upper), numCell(fixed(t.lower, digits), t.lower),
      numCell(fixed(t.targetMean, digits), t.targetMean), numCell(String(t.targetN), t.targetN, undefined, "num n"));
  });
  return table;
}

/** Words per turn by speaker: utterances, words and their ratio. */
export function wordsPerTurnTable(rows: readonly WordsPerTurnRow[]): HTMLTableElement {
  const table = el("table", undefined, "numeric words-per-turn");
  table.setAttribute("data-testid", "words-per-turn");
  const head = table.createTHead().insertRow();
  head.append(el("th", "Speaker model"), el("th", "utterances", "num"), el("th", "words", "num"), el("th", "words per turn", "num"));
  const body = table.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    tr.append(el("td", r.model), numCell(r.turns.toLocaleString("en-US"), r.turns), numCell(r.words.toLocaleString("en-US"), r.words),
      numCell(fixed(r.perTurn, 1), r.perTurn, `wpt-${r.model}`));
  }
  return table;
}
