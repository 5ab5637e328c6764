// STSS tables and charts: the task-type mapping, Table 3 (level × SR/GCSR ×
// micro/macro), GA vs GA + TDP per model, the per-task and per-type
// drill-downs, Table 4, and logged scores that disagree with the rules.
// Tables use DOM calls and textContent only; every number keeps its exact
// value in data-value and has a data-testid.

import type {TopLevelSpec} from "vega-lite";
import type {ScoreDisagreement, Table4Row} from "../lib/stss-action.js";
import type {RankedFailure} from "../lib/stss-failures.js";
import {CATEGORIES, LEVELS, TABLE3_CELLS, TASK_TYPE_MAP, categoryInfo, type Average, type ConditionFailure, type ConversationMetric, type Level, type Table3Row,
  type TaskConversationSummary} from "../lib/stss.js";
import {el, fixed, headCell, numCell, percent} from "./dom.js";

function cell(value: number, testId?: string, digits = 3): HTMLTableCellElement {
  const td = numCell(fixed(value, digits), undefined, testId);
  td.dataset.value = Number.isNaN(value) ? "NaN" : String(value);
  return td;
}

const rowId = (r: {model: string; architecture: string}) => `${r.model}-${r.architecture}`;

/** The benchmark's six task types, the paper's five, and how many tasks of each the store holds. */
export function mappingTable(tasks: readonly {source_type: string; category: string}[]): HTMLTableElement {
  const table = el("table", undefined, "stss-mapping");
  table.setAttribute("data-testid", "stss-mapping");
  const head = table.createTHead().insertRow();
  for (const h of ["task_type in the task files", "paper's type (Table 2)", "why", "tasks in the store"]) head.append(el("th", h));
  const body = table.createTBody();
  const known = new Set(TASK_TYPE_MAP.map((m) => m.sourceType));
  for (const m of TASK_TYPE_MAP) {
    const n = tasks.filter((t) => t.source_type === m.sourceType).length;
    const tr = body.insertRow();
    tr.append(el("td", m.sourceType), el("td", categoryInfo(m.category).name), el("td", m.why), numCell(String(n), n, `stss-mapping-${m.sourceType}`));
  }
  // Any spelling the importer accepted case-insensitively but that differs from the canonical name.
  for (const s of [...new Set(tasks.map((t) => t.source_type))].filter((s) => !known.has(s))) {
    const tr = body.insertRow();
    const n = tasks.filter((t) => t.source_type === s).length;
    tr.append(el("td", s), el("td", categoryInfo(tasks.find((t) => t.source_type === s)!.category as never).name), el("td", "same type, other spelling"), numCell(String(n), n));
  }
  const foot = table.createTFoot().insertRow();
  foot.append(el("td", "per paper type"), el("td", CATEGORIES.map((c) => `${c.abbrev} ${tasks.filter((t) => t.category === c.key).length}`).join(" · ")), el("td", ""), numCell(String(tasks.length), tasks.length));
  return table;
}

/** The task definitions the store holds: id, type, who performs it, and how many people and goal conditions it involves. */
export function definitionsTable(tasks: readonly {task_id: string; source_type: string; category: string; performer: string; target_num: number | null; characters: number; goals: number}[]): HTMLTableElement {
  const table = el("table", undefined, "numeric stss-definitions");
  table.setAttribute("data-testid", "stss-definitions");
  const head = table.createTHead().insertRow();
  head.append(el("th", "Task"), el("th", "Type (task file)"), el("th", "Paper's type"), el("th", "Performer"),
    el("th", "Target number", "num"), el("th", "Characters", "num"), el("th", "Goal conditions", "num"));
  const body = table.createTBody();
  for (const t of tasks) {
    const tr = body.insertRow();
    tr.append(el("td", t.task_id), el("td", t.source_type), el("td", categoryInfo(t.category as never).name), el("td", t.performer),
      numCell(t.target_num === null ? "–" : String(t.target_num), t.target_num ?? undefined), numCell(String(t.characters), t.characters), numCell(String(t.goals), t.goals));
  }
  return table;
}

/**
 * Table 3: rows (LLM, architecture); columns level × {judged, SR, GCSR} ×
 * {micro, macro}. Each level starts with the number of conversations its
 * cells average over (judged by the chosen verdict set at that level).
 */
export function table3Table(rows: readonly Table3Row[], {testIdPrefix = "stss-t3"} = {}): HTMLTableElement {
  const table = el("table", undefined, "numeric stss-table3");
  table.setAttribute("data-testid", `${testIdPrefix}-table`);
  const thead = table.createTHead();
  const h1 = thead.insertRow();
  h1.append(headCell("LLM", {rowSpan: 3}), headCell("Agent", {rowSpan: 3}), headCell("Conversations", {rowSpan: 3, className: "num"}));
  for (const level of LEVELS) h1.append(headCell(level === "conversation" ? "Conversation" : "Summary", {colSpan: 5}));
  const h2 = thead.insertRow();
  for (let i = 0; i < LEVELS.length; i++) {
    h2.append(headCell("judged", {rowSpan: 2, className: "num"}));
    for (const m of ["SR", "GCSR"]) h2.append(headCell(m, {colSpan: 2}));
  }
  const h3 = thead.insertRow();
  for (const c of TABLE3_CELLS) h3.append(el("th", c.average === "micro" ? "Micro" : "Macro", "num"));
  const body = table.createTBody();
  for (const r of rows) {
    const id = `${testIdPrefix}-${rowId(r)}`;
    const tr = body.insertRow();
    tr.append(el("th", r.model, "dim"), el("td", r.architecture), numCell(String(r.conversations), r.conversations, `${id}-conversations`));
    for (const level of LEVELS) {
      const n = r.judged[level];
      const judged = numCell(String(n), n, `${id}-judged_${level}`);
      judged.title = `${n} of ${r.conversations} conversation(s) judged at the ${level} level: the n of the four cells that follow`;
      tr.append(judged);
      for (const c of TABLE3_CELLS.filter((x) => x.level === level)) tr.append(cell(r.cells[c.key]!, `${id}-${c.key}`));
    }
  }
  return table;
}

/** GA against GA + TDP, per model, for one level, metric and average. */
export function tdpChart(rows: readonly Table3Row[], {level, metric, average, width}: {level: Level; metric: ConversationMetric; average: Average; width: number}): TopLevelSpec {
  const key = `${level}_${metric.toLowerCase()}_${average}`;
  const values = rows.map((r) => ({model: r.model, architecture: r.architecture, value: r.cells[key]})).filter((v) => v.value !== undefined && !Number.isNaN(v.value));
  return {
    title: `${metric} (${average}) at the ${level} level: GA vs GA + TDP`,
    width: Math.max(240, width - 160),
    height: 220,
    data: {values},
    encoding: {
      x: {field: "model", type: "nominal", title: null, axis: {labelAngle: 0}},
      xOffset: {field: "architecture", type: "nominal", sort: ["GA", "GA+TDP"]},
      y: {field: "value", type: "quantitative", title: metric, scale: {domain: [0, 1]}},
      color: {field: "architecture", type: "nominal", title: "Agent", sort: ["GA", "GA+TDP"]},
    },
    layer: [
      {mark: {type: "bar", tooltip: true}},
      {mark: {type: "text", dy: -4, fontSize: 10}, encoding: {text: {field: "value", type: "quantitative", format: ".3f"}}},
    ],
  } as TopLevelSpec;
}

/** Per task: conversations, judged, the task's SR and GCSR, and the condition it fails most. */
export function taskTable(rows: readonly TaskConversationSummary[], failures: readonly ConditionFailure[]): HTMLTableElement {
  const table = el("table", undefined, "numeric stss-tasks");
  table.setAttribute("data-testid", "stss-task-table");
  const head = table.createTHead().insertRow();
  for (const h of ["LLM", "Agent", "Task", "Type"]) head.append(el("th", h));
  for (const h of ["conversations", "judged", "SR", "GCSR"]) head.append(el("th", h, "num"));
  head.append(el("th", "fails most"));
  const body = table.createTBody();
  for (const t of rows) {
    const worst = failures.find((f) => f.model === t.model && f.architecture === t.architecture && f.group === t.task_id && f.failed > 0);
    const tr = body.insertRow();
    tr.append(el("td", t.model), el("td", t.architecture), el("td", t.task_id), el("td", categoryInfo(t.category).name),
      numCell(String(t.conversations), t.conversations), numCell(String(t.judged), t.judged), cell(t.sr), cell(t.gcsr),
      el("td", worst ? `${worst.condition.replace(/_/g, " ")} (${worst.failed} of ${worst.judged})` : "–"));
  }
  return table;
}

/**
 * Conditions that fail, per (model, architecture, task type), as ranked by
 * rankFailures: judged n, failed, the fail rate and its 95% Wilson interval.
 * Shows the first `limit` rows and says how many there are.
 */
export function failuresTable(rows: readonly RankedFailure[], {limit = 40} = {}): HTMLElement {
  const wrap = el("div");
  const table = el("table", undefined, "numeric stss-failures");
  table.setAttribute("data-testid", "stss-failures");
  const head = table.createTHead().insertRow();
  for (const h of ["LLM", "Agent", "Type", "Condition"]) head.append(el("th", h));
  for (const h of ["judged", "failed", "fail rate", "95% interval"]) head.append(el("th", h, "num"));
  const body = table.createTBody();
  for (const [i, f] of rows.slice(0, limit).entries()) {
    const tr = body.insertRow();
    const id = `stss-fail-${i}`;
    tr.append(el("td", f.model), el("td", f.architecture), el("td", categoryInfo(f.group as never)?.name ?? f.group), el("td", `${f.condition.replace(/_/g, " ")} not met`),
      numCell(String(f.judged), f.judged, `${id}-judged`), numCell(String(f.failed), f.failed, `${id}-failed`));
    const rate = numCell(percent(f.failRate), undefined, `${id}-rate`);
    rate.dataset.value = String(f.failRate);
    const interval = numCell(`${percent(f.low)} – ${percent(f.high)}`, undefined, `${id}-low`);
    interval.dataset.value = String(f.low);
    tr.append(rate, interval);
  }
  const note = el("p", rows.length > limit ? `The first ${limit} of ${rows.length} rows.` : `${rows.length} row(s).`, "n");
  note.setAttribute("data-testid", "stss-failures-count");
  wrap.append(table, note);
  return wrap;
}

/** Table 4: the mean score per task type, Overall (over tasks), conversation ratio and the tasks it covers. */
export function table4Table(rows: readonly Table4Row[]): HTMLTableElement {
  const table = el("table", undefined, "numeric stss-table4");
  table.setAttribute("data-testid", "stss-table4");
  const head = table.createTHead().insertRow();
  head.append(el("th", "LLM"), el("th", "Agent"));
  for (const c of CATEGORIES) head.append(el("th", c.abbrev, "num"));
  for (const h of ["Overall", "Conv. Ratio", "conv. tasks", "no counts", "tasks"]) head.append(el("th", h, "num"));
  const body = table.createTBody();
  for (const r of rows) {
    const id = `stss-t4-${rowId(r)}`;
    const tr = body.insertRow();
    tr.append(el("th", r.model, "dim"), el("td", r.architecture));
    for (const c of CATEGORIES) {
      const t = r.byType[c.key];
      const td = cell(t.tasks ? t.mean : NaN, `${id}-${c.key}`);
      td.title = `${t.tasks} task(s)`;
      tr.append(td);
    }
    tr.append(cell(r.overall, `${id}-overall`), cell(r.convRatio, `${id}-conv-ratio`),
      numCell(String(r.convTasks), r.convTasks, `${id}-conv-tasks`), numCell(String(r.convTasksWithout), r.convTasksWithout, `${id}-no-conv-counts`),
      numCell(String(r.tasks), r.tasks, `${id}-tasks`));
  }
  return table;
}

/** Runs whose log carries a score the rule does not give. */
export function disagreementTable(rows: readonly ScoreDisagreement[]): HTMLTableElement {
  const table = el("table", undefined, "numeric stss-disagreements");
  table.setAttribute("data-testid", "stss-disagreements");
  const head = table.createTHead().insertRow();
  for (const h of ["LLM", "Agent", "Task", "Type", "logged by"]) head.append(el("th", h));
  for (const h of ["logged", "rule"]) head.append(el("th", h, "num"));
  head.append(el("th", "how the rule scored it"));
  const body = table.createTBody();
  for (const d of rows) {
    const tr = body.insertRow();
    tr.append(el("td", d.model), el("td", d.architecture), el("td", d.task_id), el("td", categoryInfo(d.category).name), el("td", d.rater),
      cell(d.logged), cell(d.computed), el("td", d.rule));
  }
  return table;
}
