// Data for the agreement page and its glue around src/lib/agreement.ts (which
// defines every statistic, as the CLI's `report agreement` computes it): the
// summary a loader ships for the first view (data/agreement-summary.json), the
// worker that computes every other view over all instance rows
// (agreement-worker.ts), the raters a reader can compare, the options
// sentence and the plain-language summary generated from the agreement table.

import {HUMANS, pText, raterLabel, type RaterChoice, type SpreadBasis} from "../lib/agreement-labels.js";
import type {AgreementRow} from "../lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../lib/dimensions.js";
import type {AgreementColumns} from "./agreement-columns.js";
import type {AgreementView} from "./agreement-engine.js";
import {viewKey, type ViewOptions} from "./agreement-view-key.js";
import type {LoadParams, WorkerReply} from "./agreement-worker.js";

export interface AgreementRater {
  rater: string;
  rater_kind: string;
  /** Instances (episode, agent, dimension) this rater scored on multiply-rated episodes. */
  instances: number;
}

/** The raters of the multiply-rated episodes: what the menus offer. */
export interface AgreementData {
  /** Indexed by the rater codes of data/agreement-rows.parquet. */
  raters: AgreementRater[];
  /** Human annotators among the raters. */
  humans: number;
}

/** data/agreement-summary.json: what the page needs before the instance rows arrive, and the first view itself. */
export interface AgreementSummary extends AgreementData {
  /** Indexed by the dimension codes of data/agreement-rows.parquet. */
  dimensions: AgreementColumns["dimensions"];
  /** Multiply-rated SOTOPIA episodes, instances and score rows: all shipped, and what the worker checks the rows file against. */
  episodes: number;
  instances: number;
  rows: number;
  /** What the store holds, in the sentences `sociometer report agreement` prints (coverageText). */
  coverage: {lines: string[]; llmMeetsHumans: boolean};
  /** SOTOPIA episodes in the store and how many are synthetic, for the synthetic-data note. */
  sotopia: {episodes: number; synthetic: number} | null;
  /** The page's starting options and their view (null with no two raters to compare). */
  start: ViewOptions | null;
  view: AgreementView | null;
}

/** The options the page starts on besides the raters: as `sociometer report agreement` without --bins and --basis. */
export const START_BINS = 5;
export const START_BASIS: SpreadBasis = "dimension";

/** JSON with NaN and ±Infinity kept ({"$number": "NaN"}), as the table has "n/a" cells. */
export function summaryJson(summary: AgreementSummary): string {
  return JSON.stringify(summary, (_key, value) => (typeof value === "number" && !Number.isFinite(value) ? {$number: String(value)} : value));
}

/** Reads summaryJson's text back, NaN and ±Infinity included. */
export function parseSummary(text: string): AgreementSummary {
  return JSON.parse(text, (_key, value) =>
    value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1 && typeof value.$number === "string" ? Number(value.$number) : value);
}

/** Said when the page cannot start on an LLM judge, so that a human annotator as A is never a silent choice. */
export function startingRaterText(judge: string | undefined, first: RaterChoice | undefined): string {
  if (judge !== undefined || first === undefined || first === HUMANS) return "";
  return `Rater A starts on ${first.rater}, one human annotator, against the mean of the other annotators: no LLM rater scores these episodes. Choose any rater A below.`;
}

/**
 * The rater A the page starts with: the LLM rater with the most scores on
 * multiply-rated episodes (ties by name), the library's defaultJudge and so
 * the rater `sociometer report agreement` starts on without --rater.
 */
export function defaultJudge(data: AgreementData): string | undefined {
  return data.raters.filter((r) => r.rater_kind === "llm").sort((x, y) => y.instances - x.instances || x.rater.localeCompare(y.rater))[0]?.rater;
}

/** The choices for A (named raters, LLMs first) and for B (the mean of human annotators first, when there are any). */
export function raterChoices(data: AgreementData): {a: RaterChoice[]; b: RaterChoice[]; named: Map<string, RaterChoice>} {
  const sorted = [...data.raters].sort((x, y) => Number(y.rater_kind === "llm") - Number(x.rater_kind === "llm") || y.instances - x.instances || x.rater.localeCompare(y.rater));
  const named = new Map<string, RaterChoice>(sorted.map((r) => [r.rater, {rater: r.rater}]));
  const list = [...named.values()];
  return {a: list, b: data.humans > 0 ? [HUMANS, ...list] : list, named};
}

/** The menus' starting A and B: the default judge (else the first rater) against the humans (else the next rater). Entries of `choices`, as the menus compare by identity. */
export function startingRaters(choices: ReturnType<typeof raterChoices>, judge: string | undefined): {a: RaterChoice | null; b: RaterChoice | null} {
  const a = (judge === undefined ? undefined : choices.named.get(judge)) ?? choices.a[0] ?? null;
  const b = choices.b.includes(HUMANS) ? HUMANS : choices.b.find((c) => c !== a) ?? choices.b[0] ?? null;
  return {a, b};
}

/**
 * How a choice is named in the menus: "gpt-4 (llm, 1,176 instances)", "mean of human annotators (8 annotators)".
 * Instances, not scores: a rater's runs are averaged per instance, so the count is not the overview's number of scores.
 */
export function choiceLabel(choice: RaterChoice, data: AgreementData): string {
  if (choice === HUMANS) return `${raterLabel(choice)} (${data.humans} annotator${data.humans === 1 ? "" : "s"})`;
  const info = data.raters.find((r) => r.rater === choice.rater);
  return info ? `${info.rater} (${info.rater_kind}, ${info.instances.toLocaleString("en-US")} instance${info.instances === 1 ? "" : "s"})` : choice.rater;
}

/** Whether two sets of options are the same (raters by name). */
export const sameOptions = (x: ViewOptions, y: ViewOptions): boolean => JSON.stringify([x.a, x.b, x.bins, x.basis]) === JSON.stringify([y.a, y.b, y.bins, y.basis]);

/** Progress of the worker's current job, for the page's status line. */
export interface Progress {
  job: string;
  done: number;
  total: number;
  /** What is being done, in words ("reading instance rows"). */
  what: string;
}

/** How many of the options next to the current ones the worker has computed ahead. */
export interface Ahead {
  done: number;
  total: number;
}

/** What the page says while the worker computes options it has not computed ahead. */
export const COMPUTING_TEXT = "Computing these options in the background worker…";

/**
 * The values of the line that says the worker is computing, for one change:
 * "" alone when the view is ready (a second "" would redraw the line in a
 * later frame, after the first frame's layout and paint, for no change on
 * screen), else COMPUTING_TEXT at once and "" once `pending` settles.
 */
export function computingLine(ready: boolean, pending: Promise<unknown>, notify: (text: string) => void): void {
  if (ready) {
    notify("");
    return;
  }
  notify(COMPUTING_TEXT);
  const done = () => notify("");
  pending.then(done, done);
}

/** The status line's words for it: said until every neighbour is ready, then nothing. */
export const aheadText = ({done, total}: Ahead): string =>
  done >= total ? "" : `Computing the choices next to these ahead, so that changing one is a lookup: ${done} of ${total} ready.`;

/** The page's side of the agreement worker (see the protocol in agreement-worker.ts). */
export interface AgreementWorker {
  /** Runs a named job; resolves with its result, rejects with its error. Progress goes to the listeners. */
  run<T>(job: string, params?: unknown): Promise<T>;
  /** The agreement view for these options, computed over every instance row: at once when the worker computed it ahead. */
  view(options: ViewOptions): Promise<AgreementView>;
  /** Whether view(options) answers at once (the worker computed it ahead, or it was asked before). */
  ready(options: ViewOptions): boolean;
  /** Says the page shows these options (from its summary), so the worker computes their neighbours next. */
  focus(options: ViewOptions): void;
  /** Called with each progress message (and null when a job ends). */
  onProgress(listener: (p: Progress | null) => void): () => void;
  /** Called each time the worker has computed ahead one more of the current options' neighbours. */
  onAhead(listener: (a: Ahead) => void): () => void;
  /**
   * Resolves the first time the worker has every neighbour of the current
   * options ready (or can compute nothing more: its load failed, it failed,
   * or it was stopped): from then on it takes a core only when asked.
   */
  idle(): Promise<void>;
  terminate(): void;
}

/** Views the page keeps (each some tens of kilobytes): every neighbour of three sets of options. */
const KEPT_VIEWS = 400;

/**
 * The page's handle on the worker that reads every instance row. The worker
 * itself starts when `startWhen` resolves (the page passes afterFirstView(),
 * so that reading tens of megabytes of rows does not compete with the first
 * table for two cores), or at once if the page asks for a view before then; it
 * loads the rows straight away, so that by the time a reader changes an option
 * they are (or are being) read.
 */
export function startAgreementWorker(rowsUrl: string, summary: AgreementSummary, startWhen: Promise<void> = Promise.resolve()): AgreementWorker {
  let worker: Worker | null = null;
  let terminated = false;
  const pending = new Map<number, {resolve: (v: unknown) => void; reject: (e: Error) => void; job: string}>();
  const listeners = new Set<(p: Progress | null) => void>();
  const aheadListeners = new Set<(a: Ahead) => void>();
  let settleIdle = () => {};
  const idle = new Promise<void>((resolve) => (settleIdle = resolve));
  let next = 0;
  const tell = (p: Progress | null) => {
    for (const l of listeners) l(p);
  };
  // The views the worker computed ahead or was asked for, most recent last: a change to one of them is a lookup here.
  const views = new Map<string, AgreementView>();
  const keepView = (key: string, value: AgreementView) => {
    views.delete(key);
    views.set(key, value);
    if (views.size > KEPT_VIEWS) views.delete(views.keys().next().value!);
  };
  const onMessage = (event: MessageEvent<WorkerReply>) => {
    const reply = event.data;
    if (reply.type === "ahead") {
      if (reply.value !== null) keepView(reply.key, reply.value);
      for (const l of aheadListeners) l({done: reply.done, total: reply.total});
      if (reply.done >= reply.total) settleIdle();
      return;
    }
    // The worker's code is warm: the page shows nothing for it (the benchmarks time it).
    if (reply.type === "warmed") return;
    const call = pending.get(reply.id);
    if (!call) return;
    if (reply.type === "progress") return tell({job: call.job, done: reply.done, total: reply.total, what: reply.what});
    pending.delete(reply.id);
    tell(null);
    if (reply.type === "result") call.resolve(reply.value);
    else call.reject(new Error(reply.message));
  };
  const onError = (event: ErrorEvent) => {
    settleIdle();
    for (const call of pending.values()) call.reject(new Error(`the agreement worker failed: ${event.message}`));
    pending.clear();
  };
  const url = new URL(rowsUrl, document.baseURI).href;
  const load: LoadParams = {url, raters: summary.raters.map((r) => r.rater), dimensions: summary.dimensions, rows: summary.rows, warm: summary.start ?? undefined};
  const started = (): Worker => {
    if (worker !== null) return worker;
    const created = new Worker(import.meta.resolve("./agreement-worker.js"), {type: "module"});
    created.onmessage = onMessage;
    created.onerror = onError;
    // The load goes first whatever starts the worker: every other job reads the rows it loads. Its
    // failure needs no handler here: the next job gets the same error, where the page shows it.
    const id = next++;
    pending.set(id, {resolve: () => {}, reject: settleIdle, job: "load"});
    created.postMessage({id, job: "load", params: load});
    return (worker = created);
  };
  const run = <T>(job: string, params?: unknown): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (terminated) return reject(new Error("the agreement worker was stopped"));
      const id = next++;
      pending.set(id, {resolve: resolve as (v: unknown) => void, reject, job});
      started().postMessage({id, job, params});
    });
  // Tells the worker the page's options when the page answered them itself, so it computes their neighbours next.
  // Before the worker starts there is nothing to tell: its load warms the starting options' neighbours anyway.
  const focus = (options: ViewOptions) => {
    if (worker !== null) void run("focus", options).catch(() => {});
  };
  void startWhen.then(() => {
    if (!terminated) started();
  });
  return {
    run,
    view(options) {
      const key = viewKey(options);
      const known = views.get(key);
      if (known) {
        keepView(key, known);
        focus(options);
        return Promise.resolve(known);
      }
      return run<AgreementView>("view", options).then((value) => {
        keepView(key, value);
        return value;
      });
    },
    ready: (options) => views.has(viewKey(options)),
    focus,
    onProgress(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onAhead(listener) {
      aheadListeners.add(listener);
      return () => aheadListeners.delete(listener);
    },
    idle: () => idle,
    terminate() {
      terminated = true;
      settleIdle();
      worker?.terminate();
    },
  };
}

export const BASIS_LABELS: Record<SpreadBasis, string> = {
  dimension: "sample sd of B's scores over all instances of the dimension",
  annotators: "sample sd of the instance's own human annotators (instances with two or more)",
};

export interface AgreementOptions {
  a: RaterChoice;
  b: RaterChoice;
  bins: number;
  basis: SpreadBasis;
}

/** The sentence that says which options produced the numbers under it (a and b are null when no episode has two raters). */
export function optionsText({a, b, bins, basis}: Omit<AgreementOptions, "a" | "b"> & {a: RaterChoice | null; b: RaterChoice | null}): string {
  if (a === null || b === null) return "No raters to compare: no episode is scored by two or more raters.";
  return `A = ${raterLabel(a)}; B = ${raterLabel(b)}; kappa over k = ${bins} equal-width bins; "within one sd" against the ${BASIS_LABELS[basis]}.`;
}

/** A p-value as the page prints it (src/lib/agreement.ts). */
export {pText};

/** Whether A and B name the same rater (the menus offer the mean of human annotators as B only). */
export const sameRater = (a: RaterChoice | null, b: RaterChoice | null): boolean =>
  a !== null && b !== null && (a === HUMANS ? b === HUMANS : b !== HUMANS && a.rater === b.rater);

/** What the page says instead of its tables and charts when A = B. */
export const sameRaterText = (a: RaterChoice | null): string =>
  `A and B are the same rater (${a === null ? "none" : raterLabel(a)}): every score would be compared with itself. Choose a different rater B.`;

/** Pearson's stars as in SOTOPIA Table 1: ** for p ≤ 0.01, * for p ≤ 0.05. */
export function stars(p: number): string {
  if (Number.isNaN(p)) return "";
  return p <= 0.01 ? "**" : p <= 0.05 ? "*" : "";
}

/** The dimensions of the agreement table, in the paper's order, then every dimension pooled. */
export const AGREEMENT_DIMENSIONS = [...SOTOPIA_DIMENSIONS.map((d) => ({key: d.key, abbrev: d.abbrev, name: d.name, lo: d.lo, hi: d.hi})), {key: "all", abbrev: "ALL", name: "All dimensions pooled", lo: NaN, hi: NaN}];

/** Thresholds of the summary: stated on the page next to it. */
export const TRUST = {rMin: 0.5, alpha: 0.05, biasShare: 0.05} as const;

export interface SummaryLine {
  key: "thresholds" | "trusted" | "untrusted" | "bias" | "human-played";
  text: string;
}

const fmt = (v: number, digits = 2) => (Number.isNaN(v) ? "n/a" : v.toFixed(digits));
const signed = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(2)}`;
/** A sentence that starts with "the mean of …" gets its capital; rater names keep their own spelling. */
const cap = (s: string) => (s.startsWith("the ") ? `T${s.slice(1)}` : s);
const list = (items: string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/** Whether a row passes the summary's threshold: r ≥ rMin with p < alpha (NaN fails). */
export const passes = (row: AgreementRow): boolean => row.pearson !== null && row.pearson.r >= TRUST.rMin && row.pearson.p < TRUST.alpha;

/**
 * Answers "on which dimensions can A stand in for B, and which way is A
 * biased?" in sentences generated from the agreement table's numbers.
 */
export function trustSummary(table: readonly AgreementRow[], {a, b}: Pick<AgreementOptions, "a" | "b">): SummaryLine[] {
  // Named in sentences: "the mean of human annotators", or the rater's name.
  const A = a === HUMANS ? `the ${raterLabel(a)}` : raterLabel(a);
  const B = b === HUMANS ? `the ${raterLabel(b)}` : raterLabel(b);
  const lines: SummaryLine[] = [{
    key: "thresholds",
    text: `Thresholds: A stands in for B on a dimension when Pearson's r ≥ ${TRUST.rMin} with p < ${TRUST.alpha} over all of the dimension's ` +
      `instances; a mean difference A − B counts as a bias when it is at least ${TRUST.biasShare * 100}% of the dimension's range ` +
      `(${(TRUST.biasShare * 10).toFixed(1)} points on a 0–10 scale).`,
  }];
  const trusted: string[] = [];
  const untrusted: string[] = [];
  const higher: string[] = [];
  const lower: string[] = [];
  const even: string[] = [];
  const humanPlayed: {abbrev: string; ok: boolean}[] = [];
  for (const d of SOTOPIA_DIMENSIONS) {
    const row = table.find((t) => t.dimension === d.key && t.played_by === "all");
    if (!row || row.n === 0) {
      untrusted.push(`${d.abbrev} (no paired instances)`);
      continue;
    }
    const r = row.pearson;
    if (r === null) untrusted.push(`${d.abbrev} (no correlation)`);
    else if (passes(row)) trusted.push(`${d.abbrev} (r = ${fmt(r.r)}, n = ${row.n})`);
    else if (Number.isNaN(r.r)) untrusted.push(`${d.abbrev} (r n/a: one side has no variance, n = ${row.n})`);
    else untrusted.push(`${d.abbrev} (r = ${fmt(r.r)}, p = ${pText(r.p)}, n = ${row.n})`);
    if (Math.abs(row.bias) >= TRUST.biasShare * (d.hi - d.lo)) (row.bias > 0 ? higher : lower).push(`${d.abbrev} (${signed(row.bias)})`);
    else if (!Number.isNaN(row.bias)) even.push(d.abbrev);
    const human = table.find((t) => t.dimension === d.key && t.played_by === "human");
    if (human && human.n > 0) humanPlayed.push({abbrev: d.abbrev, ok: passes(human)});
  }
  lines.push({
    key: "trusted",
    text: trusted.length
      ? cap(`${A} can stand in for ${B} on ${list(trusted)}.`)
      : cap(`${A} cannot stand in for ${B} on any dimension by these thresholds.`),
  });
  if (untrusted.length) lines.push({key: "untrusted", text: `Not on ${list(untrusted)}.`});
  const direction = [
    higher.length ? `${A} scores higher than ${B} on ${list(higher)}` : "",
    lower.length ? `lower on ${list(lower)}` : "",
    even.length ? `within ±${TRUST.biasShare * 100}% of the range on ${list(even)}` : "",
  ].filter(Boolean);
  if (direction.length) lines.push({key: "bias", text: `Direction (mean of A − B): ${direction.join("; ")}.`});
  if (humanPlayed.length) {
    const ok = humanPlayed.filter((h) => h.ok).map((h) => h.abbrev);
    lines.push({
      key: "human-played",
      text: `On agents played by humans alone, the threshold holds on ${ok.length} of the ${humanPlayed.length} dimensions with such instances` +
        `${ok.length ? ` (${list(ok)})` : ""}: see the "played by human" columns below.`,
    });
  }
  return lines;
}
