// Verdicts on an audited table (METRICS.md § Reported-table audit): each cell
// recomputed and compared with the printed digits, the denominators behind
// reported shares, and per table one sentence a reviewer can paste into a
// report saying which formula and rounding reproduce it.

import {
  cellVerdict, commonDenominators, countsFor, DEFAULT_MAX_DENOMINATOR, isPercent, reportedDigits, smallestDenominator, VERDICT_ORDER, verdictRank,
  type CellVerdictKind, type DenominatorMatch, type PrintingRules, type RoundingVerdict, type ShareRounding,
} from "./audit.js";
import {auditFormula, type AuditInputs} from "./audit-formulas.js";
import type {AuditCell} from "./audit-csv.js";
import {extremes} from "./stats.js";

export interface AuditOptions {
  /** Largest denominator searched when inferring n behind a share (default 10,000). */
  maxN?: number;
}

export interface CellResult {
  line: number;
  table: string;
  row: string;
  column: string;
  formula: string;
  expression: string;
  reported: string;
  /** The recomputed value in the reported unit (a percentage when the reported value has %). */
  computed: number;
  verdict: CellVerdictKind;
  /** The rounding verdict of the computed value as if its inputs were exact; with a tolerance, no evidence of the paper's rule. */
  faceValue: RoundingVerdict;
  /** The printing rules that can give the reported digits (with a tolerance: from some value within it). */
  fits: PrintingRules;
  /** computed − reported, in the reported unit. */
  difference: number;
  tolerance: number | null;
  /** Whether the tolerance was propagated from the inputs' printed digits (`auto`). */
  toleranceAuto: boolean;
  source: string;
  /** Share cells: the claimed n, the count used (given, or inferred as the one that prints closest), and n's consistency. */
  claimedN: number | null;
  count: number | null;
  countInferred: boolean;
  /**
   * The rule the share's denominators are checked under: the one the cell's
   * verdict established (truncated when only truncation prints the share),
   * else rounded. Null for cells that are not shares.
   */
  denominatorRounding: ShareRounding | null;
  /** Counts out of the claimed n that print as the reported share under denominatorRounding; empty when n is inconsistent. */
  countsOfClaimedN: number[] | null;
  /** The smallest n ≤ maxN with a count that prints as the reported share under denominatorRounding, null when none does. */
  smallestN: number | null;
  smallestCounts: number[] | null;
}

/** Truncated when the verdict says the share prints only by truncation; rounded otherwise (exact and ambiguous shares fit both). */
const roundingOf = (fits: PrintingRules): ShareRounding => (fits.truncated && !fits.rounded ? "truncated" : "rounded");

const num = (v: number | number[] | undefined): number | undefined => (Array.isArray(v) ? undefined : v);

/**
 * The count out of n that reproduces a share best: any count whose share prints
 * as the reported digits (rounded or truncated), else the nearest ones; the
 * strongest verdict wins, then the smallest difference.
 */
function bestCount(reported: string, n: number, tolerance: number | null): {count: number; verdict: ReturnType<typeof cellVerdict>} {
  const share = Number(reported.trim().replace(/%$/, "")) / (isPercent(reported) ? 100 : 1);
  const near = Math.min(n, Math.max(0, Math.floor(share * n)));
  const candidates = new Set([...countsFor(reported, n), ...countsFor(reported, n, {rounding: "truncated"}), near, Math.min(n, near + 1)]);
  let best: {count: number; verdict: ReturnType<typeof cellVerdict>} | null = null;
  for (const count of [...candidates].sort((a, b) => a - b)) {
    const verdict = cellVerdict(count / n, reported, {tolerance});
    const better = !best || verdictRank(verdict.verdict) < verdictRank(best.verdict.verdict) ||
      (verdict.verdict === best.verdict.verdict && Math.abs(verdict.difference) < Math.abs(best.verdict.difference));
    if (better) best = {count, verdict};
  }
  return best!;
}

/** One cell's verdict from its complete inputs (checked by the CSV reader or the query resolver). */
export function auditCell(cell: AuditCell, inputs: AuditInputs, options: AuditOptions = {}): CellResult {
  const formula = auditFormula(cell.formula);
  if (!formula) throw new Error(`unknown formula ${cell.formula}`);
  const base = {line: cell.line, table: cell.table, row: cell.row, column: cell.column, formula: formula.name, expression: formula.expression,
    reported: cell.reported, tolerance: cell.tolerance, toleranceAuto: cell.toleranceAuto, source: cell.source};
  const of = (v: ReturnType<typeof cellVerdict>) => ({computed: v.value, verdict: v.verdict, faceValue: v.faceValue, fits: v.fits, difference: v.difference});
  const value = formula.compute(inputs);
  if (formula.name !== "share") {
    return {...base, ...of(cellVerdict(value!, cell.reported, {tolerance: cell.tolerance})), claimedN: null, count: null, countInferred: false,
      denominatorRounding: null, countsOfClaimedN: null, smallestN: null, smallestCounts: null};
  }
  const n = num(inputs.n)!;
  const given = num(inputs.count);
  const chosen = given === undefined ? bestCount(cell.reported, n, cell.tolerance) : {count: given, verdict: cellVerdict(given / n, cell.reported, {tolerance: cell.tolerance})};
  const rounding = roundingOf(chosen.verdict.fits);
  const smallest = smallestDenominator(cell.reported, {maxN: options.maxN, rounding});
  return {...base, ...of(chosen.verdict), claimedN: n, count: chosen.count, countInferred: given === undefined,
    denominatorRounding: rounding, countsOfClaimedN: countsFor(cell.reported, n, {rounding}),
    smallestN: smallest?.n ?? null, smallestCounts: smallest?.counts ?? null};
}

// ---------------------------------------------------------------------------
// Per-table sentences.

/** Cells that share a label along the table's long axis and a formula: one clause of the sentence. */
interface Group {
  label: string;
  formula: string;
  expression: string;
  cells: CellResult[];
}

export interface ShareColumn {
  label: string;
  reported: string[];
  /** The rule the group's shares are checked under: truncated when its reproducing cells establish truncation, else rounded. */
  rounding: ShareRounding;
  /** The smallest n ≤ maxN that reproduces every share of the group, with each cell's counts; null when none does. */
  common: DenominatorMatch[] | null;
  claimedN: number[];
}

export interface TableSummary {
  table: string;
  sources: string[];
  /** Whether the clauses run along columns (each column a group of rows) or along rows. */
  axis: "column" | "row";
  cells: number;
  counts: Partial<Record<CellVerdictKind, number>>;
  shares: ShareColumn[];
  sentence: string;
}

const VERDICT_TEXT: Record<CellVerdictKind, string> = {
  exact: "exact",
  "rounded-or-truncated": "rounded or truncated",
  rounded: "rounded",
  truncated: "truncated",
  "within-tolerance": "within the tolerance only",
  mismatch: "mismatch",
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const andList = (xs: readonly string[]) => (xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
const quote = (s: string) => `'${s}'`;

/** A number with the reported digits plus two, so the digit that decides rounding shows. */
export function shown(value: number, digits: number): string {
  return value.toFixed(Math.min(12, digits + 2));
}
/** A bound with two significant digits, rounded up so the text never understates it: 0.0098132 → "0.0099". */
export function boundText(bound: number): string {
  if (!(bound > 0)) return "0";
  const decimals = 1 - Math.floor(Math.log10(bound));
  const scale = 10 ** decimals;
  const up = Math.ceil(bound * scale - 1e-6) / scale;
  return decimals > 0 ? up.toFixed(decimals).replace(/\.?0+$/, "") : String(up);
}

/** A cell's tolerance as the tables print it: "±0.0005 (auto)", "" without one. */
export const toleranceText = (c: Pick<CellResult, "tolerance" | "toleranceAuto">): string =>
  c.tolerance === null ? "" : `±${boundText(c.tolerance)}${c.toleranceAuto ? " (auto)" : ""}`;

/** A difference with its sign, at the same digits. */
export const signed = (value: number, digits: number): string =>
  // A float residue such as -3e-17 prints as +0.00000, not -0.00000.
  (value >= 0 || Number(shown(Math.abs(value), digits)) === 0 ? "+" : "-") + shown(Math.abs(value), digits);
const digitsOf = (c: CellResult): number => reportedDigits(c.reported);

/** "to 2 digits" when every cell prints the same number of decimals, else "to the printed digits". */
function digitsText(cells: readonly CellResult[]): string {
  const ds = new Set(cells.map(digitsOf));
  if (ds.size !== 1) return "to the printed digits";
  const [d] = ds;
  return d === 0 ? "to whole numbers" : `to ${plural(d!, "digit")}`;
}


/** Whether a cell's inputs are rounded: it states a tolerance above 0. */
const hasBound = (c: CellResult): boolean => (c.tolerance ?? 0) > 0;

/** How cells whose inputs are exact reproduce, from their rounding verdicts; `named` when the text already names cells. */
function plainMatch(ok: readonly CellResult[], are: boolean, cross: (c: CellResult) => string): {text: string; named: boolean} {
  const be = are ? "are" : "is";
  const kinds = new Set(ok.map((c) => c.verdict));
  const d = digitsText(ok);
  if ([...kinds].every((k) => k === "exact")) return {text: `${be} exact`, named: false};
  if ([...kinds].every((k) => k === "exact" || k === "rounded-or-truncated")) return {text: `${be} rounded or truncated ${d} (the printed digits cannot tell which)`, named: false};
  if (kinds.has("rounded") && !kinds.has("truncated")) return {text: `${be} rounded ${d}`, named: false};
  if (kinds.has("truncated") && !kinds.has("rounded")) return {text: `${be} truncated ${d}, not rounded`, named: false};
  const which = (k: CellVerdictKind) => andList(ok.filter((c) => c.verdict === k).map((c) => quote(cross(c))));
  return {text: `${be} rounded ${d} in ${which("rounded")} but truncated in ${which("truncated")}: no single rule`, named: true};
}

/**
 * How cells with rounded inputs reproduce: within which bound, where the bound
 * comes from, which printing rules a value within it allows, and the face-value
 * verdicts, said to be no evidence of the paper's rule.
 */
function boundedMatch(cells: readonly CellResult[], subject: string): string {
  const one = subject === "it";
  const bounds = cells.map((c) => c.tolerance!);
  const {min: lo, max: hi} = extremes(bounds);
  const range = boundText(lo) === boundText(hi) ? `±${boundText(hi)}` : `±${boundText(lo)} to ±${boundText(hi)}`;
  const auto = cells.filter((c) => c.toleranceAuto).length;
  const origin = auto === cells.length ? "the error the inputs' printed digits allow, propagated through the formula"
    : auto === 0 ? `the tolerance stated for ${one ? "its" : "their"} rounded inputs`
    : "the tolerances stated or propagated from the inputs' printed digits";
  const rounded = cells.every((c) => c.fits.rounded);
  const truncated = cells.every((c) => c.fits.truncated);
  const every = one ? "" : " every cell";
  const rules = rounded && truncated ? "rounding and truncation both fit, so which one the paper used cannot be told"
    : rounded ? `only rounding fits${every}` : truncated ? `only truncation fits${every}` : "no single printing rule fits every cell";
  const faces = new Set(cells.map((c) => c.faceValue));
  const face = VERDICT_ORDER.filter((k) => faces.has(k as RoundingVerdict)).map((k) => `${cells.filter((c) => c.faceValue === k).length} ${VERDICT_TEXT[k]}`).join(", ");
  return `${subject} match${one ? "es" : ""} within ${range}, ${origin}: ${rules} (at face value ${face}, no evidence while the inputs are rounded)`;
}

/** How the cells of a group that reproduce do so, each worded by its own tolerance; `are` picks the verb for a plural subject. */
function howItMatches(ok: readonly CellResult[], are: boolean, cross: (c: CellResult) => string): string {
  // Exact cells join the bounded ones when there are any: "1 exact, 3 within" reads as one statement about rounded inputs.
  const within = ok.filter((c) => hasBound(c) && c.verdict === "within-tolerance");
  const bounded = within.length ? ok.filter(hasBound) : [];
  const plain = ok.filter((c) => !bounded.includes(c));
  const names = (cells: readonly CellResult[]) => andList(cells.map((c) => quote(cross(c))));
  if (!bounded.length) return plainMatch(plain, are, cross).text;
  const boundedText = boundedMatch(bounded, are ? "they" : "it");
  if (!plain.length) return boundedText.replace(/^(it|they) /, "");
  const p = plainMatch(plain, are, cross);
  return `${p.text}${p.named ? "" : `, in ${names(plain)}`}; in ${names(bounded)} ${boundedText}`;
}

/** " as shares of the claimed n = 30 (17, 11, 13 and 8)", or with mixed n, " as shares (17 of 30, …)"; `nearest` when no count fits. */
function sharesText(cells: readonly CellResult[], nearest: boolean): string {
  const ns = new Set(cells.map((c) => c.claimedN));
  const counts = cells.map((c) => (ns.size === 1 ? String(c.count) : `${c.count} of ${c.claimedN}`));
  const one = cells.length === 1;
  const which = nearest ? (one ? "nearest count " : "nearest counts ") : "";
  const as = one ? "as a share" : "as shares";
  return ns.size === 1 ? ` ${as} of the claimed n = ${[...ns][0]} (${which}${andList(counts)})` : ` ${as} (${which}${andList(counts)})`;
}

/**
 * The rule a group's shares are checked under: truncated when its reproducing
 * cells all allow truncation and some allow nothing else; rounded otherwise
 * (also when some cells round and others truncate, which the sentence names).
 */
function groupRounding(cells: readonly CellResult[]): ShareRounding {
  const ok = cells.filter((c) => c.verdict !== "mismatch");
  return ok.length && ok.every((c) => c.fits.truncated) && ok.some((c) => c.denominatorRounding === "truncated") ? "truncated" : "rounded";
}

/** What the denominators say about a group of shares, under share.rounding: the smallest n that gives them all, and whether the claimed n does. */
function denominatorsText(group: Group, share: ShareColumn, maxN: number): string {
  const k = group.cells.length;
  const claimed = [...new Set(share.claimedN)];
  // Said whenever it is not the plain convention, or when the group mixes rules and "rounded" was picked.
  const mixed = group.cells.some((c) => c.denominatorRounding !== share.rounding && c.verdict !== "mismatch");
  const rule = share.rounding === "truncated" ? " when truncated" : mixed ? " when rounded" : "";
  const fits = group.cells.filter((c) => countsFor(c.reported, c.claimedN!, {rounding: share.rounding}).length > 0).length;
  const claimText = claimed.length === 1 && group.cells.some((c) => c.verdict !== "mismatch")
    ? (fits === k ? "" : fits === 0 ? `; no count out of the claimed n = ${claimed[0]} gives ${k === 1 ? "it" : `any of the ${k}`}${rule}` : `; the claimed n = ${claimed[0]} gives only ${fits} of the ${k}${rule}`)
    : "";
  if (!share.common) return `${claimText}; no single n ≤ ${maxN.toLocaleString("en-US")} gives all ${k}${rule}`;
  const n = share.common[0]!.n;
  const counts = andList(share.common.map((m) => m.counts.join(" or ")));
  if (claimed.length === 1 && claimed[0] === n) return `${claimText}; ${n} is also the smallest n that gives ${k === 1 ? "it" : `all ${k}`}${rule}`;
  return `${claimText}; ${k === 1 ? "it is a share" : `all ${k} are shares`} of n = ${n} (${counts}), the smallest n that gives ${k === 1 ? "it" : `all ${k}`}${rule}`;
}

/** One sentence per table: which formula and rounding reproduce it, which cells do not, and what the shares' denominators say. */
export function summarizeTable(results: readonly CellResult[], options: AuditOptions = {}): TableSummary {
  const maxN = options.maxN ?? DEFAULT_MAX_DENOMINATOR;
  const table = results[0]!.table;
  // Clauses run along columns (Table 1's precision, recall and F1 over eight rows), unless the
  // table has fewer rows than columns and one formula throughout: Table G.3's one row (Overall)
  // over three model columns reads as a statement about Overall.
  const rows = new Set(results.map((c) => c.row));
  const columns = new Set(results.map((c) => c.column));
  const oneFormula = new Set(results.map((c) => c.formula)).size === 1;
  const axis: "column" | "row" = rows.size < columns.size && oneFormula ? "row" : "column";
  const labelOf = (c: CellResult) => (axis === "column" ? c.column : c.row);
  const cross = (c: CellResult) => (axis === "column" ? c.row : c.column);
  const crossWord = axis === "column" ? "row" : "column";

  const groups: Group[] = [];
  for (const c of results) {
    let g = groups.find((x) => x.label === labelOf(c) && x.formula === c.formula);
    if (!g) groups.push((g = {label: labelOf(c), formula: c.formula, expression: c.expression, cells: []}));
    g.cells.push(c);
  }
  const formulasPerLabel = new Map<string, number>();
  for (const g of groups) formulasPerLabel.set(g.label, (formulasPerLabel.get(g.label) ?? 0) + 1);
  const subject = (g: Group) => (formulasPerLabel.get(g.label)! > 1 ? `${g.label} as ${g.expression}` : `${g.label} (${g.expression})`);

  const shares: ShareColumn[] = [];
  const clauses: {one: string; many: string; subjects: string[]}[] = [];
  const failures = new Map<string, string[]>();
  for (const g of groups) {
    const ok = g.cells.filter((c) => c.verdict !== "mismatch");
    const bad = g.cells.filter((c) => c.verdict === "mismatch");
    let share: ShareColumn | null = null;
    if (g.formula === "share") {
      const reported = g.cells.map((c) => c.reported);
      const rounding = groupRounding(g.cells);
      share = {label: g.label, reported, rounding, claimedN: g.cells.map((c) => c.claimedN!), common: commonDenominators(reported, {maxN, limit: 1, rounding})[0] ?? null};
      shares.push(share);
    }
    const k = g.cells.length;
    let text: (are: boolean) => string;
    if (!ok.length) {
      const diffs = g.cells.map((c) => c.difference);
      const d = extremes(g.cells.map(digitsOf)).max;
      const {min: low, max: high} = extremes(diffs);
      const range = k === 1 ? `by ${signed(diffs[0]!, d)}` : `by ${signed(low, d)} to ${signed(high, d)}`;
      const unit = g.cells.some((c) => isPercent(c.reported)) ? " points" : "";
      const shareText = share ? sharesText(g.cells, true).replace(/\)$/, `, off ${range}${unit})`) : ` (${range}${unit})`;
      text = (are) => `${are ? "do" : "does"} not reproduce${k === 1 ? "" : ` any of ${are ? "their" : "its"} ${k} cells`}${shareText}`;
    } else {
      const shareText = share ? sharesText(ok, false) : "";
      const rest = bad.length ? ` (in the ${plural(ok.length, crossWord)} that reproduce)` : "";
      // "truncated …, not rounded, as a share of …": the comma keeps "rounded as a share" from reading as one phrase.
      const how = (are: boolean) => howItMatches(ok, are, cross);
      text = (are) => `${how(are)}${shareText && how(are).endsWith("not rounded") ? "," : ""}${shareText}${rest}`;
      for (const c of bad) {
        const key = cross(c);
        const list = failures.get(key) ?? [];
        list.push(`${g.label} ${shown(c.computed, digitsOf(c))} against ${c.reported} printed (${signed(c.difference, digitsOf(c))})`);
        failures.set(key, list);
      }
    }
    const denominators = share ? denominatorsText(g, share, maxN) : "";
    const one = text(false) + denominators;
    const same = clauses.find((x) => x.one === one);
    if (same) same.subjects.push(subject(g));
    else clauses.push({one, many: text(true) + denominators, subjects: [subject(g)]});
  }

  const parts = clauses.map(({one, many, subjects}) => `${andList(subjects)} ${subjects.length > 1 ? many : one}`);
  for (const [label, items] of failures) parts.push(`${crossWord} ${quote(label)} does not reproduce: ${items.join(", ")}`);
  const counts: Partial<Record<CellVerdictKind, number>> = {};
  for (const c of results) counts[c.verdict] = (counts[c.verdict] ?? 0) + 1;
  const sentence = `In ${table}, ${parts.join("; ")}.`;
  return {table, sources: [...new Set(results.map((c) => c.source).filter(Boolean))], axis, cells: results.length, counts, shares, sentence};
}

export interface AuditReport {
  cells: CellResult[];
  tables: TableSummary[];
}

/** Every cell's verdict and one summary per table, tables in the order they first appear. */
export function auditTables(resolved: readonly {cell: AuditCell; inputs: AuditInputs}[], options: AuditOptions = {}): AuditReport {
  const cells = resolved.map(({cell, inputs}) => auditCell(cell, inputs, options));
  const tables = [...new Set(cells.map((c) => c.table))].map((t) => summarizeTable(cells.filter((c) => c.table === t), options));
  return {cells, tables};
}

/** A share cell's denominators in a few words: the claimed n's counts (or none), and the smallest n that prints the share. */
export function denominatorDetail(c: CellResult, options: AuditOptions = {}): string {
  if (c.claimedN === null) return "";
  const claimed = c.countsOfClaimedN!.length
    ? `n = ${c.claimedN}: ${c.countsOfClaimedN!.join(" or ")} of ${c.claimedN}`
    : `n = ${c.claimedN}: no count prints ${c.reported}`;
  const inferred = c.countInferred ? "" : ` (count ${c.count} given)`;
  const smallest = c.smallestN === null
    ? `no n ≤ ${(options.maxN ?? DEFAULT_MAX_DENOMINATOR).toLocaleString("en-US")} prints it`
    : `smallest n = ${c.smallestN} (${c.smallestCounts!.join(" or ")})`;
  const rule = c.denominatorRounding === "truncated" ? "; shares truncated, as the verdict" : "";
  return `${claimed}${inferred}; ${smallest}${rule}`;
}

/** The verdict as a reader says it. */
export const verdictText = (v: CellVerdictKind): string => VERDICT_TEXT[v];
