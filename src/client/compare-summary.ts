// What the Compare page draws before any row reaches the browser: the
// benchmarks and the values each side key takes (the pickers), and the first
// view, the default comparison with the page's default options, computed at
// build time by the CLI's code (data/compare-summary.json). Any other choice
// goes to the page's worker (src/client/compare-worker.ts). No arquero here:
// the data loader imports this module in Node.

import type {BenchmarkChoices, CompareBenchmark, CompareOptions, Comparison, Side} from "../lib/compare.js";
import type {WinPolicy} from "../lib/hsii.js";
import type {AppointmentPartners} from "../lib/stss.js";
import {POLICY_TEXT} from "./hsii.js";

/** The page's options as its inputs start: what the first view is computed with. The resamples and seed are the library's defaults (src/lib/resample.ts), written out so that the page's first view does not load the statistics modules; a test holds them equal. */
export const PAGE_OPTIONS: Readonly<Required<Pick<CompareOptions, "adjust" | "resamples" | "seed" | "interval" | "cluster" | "unpaired">>> = {
  adjust: "holm", resamples: 1000, seed: 1, interval: "percentile", cluster: false, unpaired: false,
};

/** One comparison the page asks for: a small message, all the main thread sends the worker. */
export interface CompareRequest {
  benchmark: CompareBenchmark;
  a: Side;
  b: Side;
  options: CompareOptions;
  /** HSII only: how a stage-3/4 win counts over the two orders (`sociometer compare --win-policy`); none is the default, mean. */
  winPolicy?: WinPolicy;
  /** STSS only: which appointment conversations count (`sociometer compare --appointment-partners`); none is the default, target. */
  appointmentPartners?: AppointmentPartners;
}

/** HSII's win policies, the default first: the values of `compare --win-policy` and of the page's input. */
export const WIN_POLICIES: readonly WinPolicy[] = ["mean", "strict", "first"];

/** The policy a request's HSII wins are scored under. */
const policyOf = (r: CompareRequest): WinPolicy => r.winPolicy ?? "mean";

/** The note that says which win policy HSII's stage-3/4 wins were scored under, as the CLI and the page print it. */
export const winPolicyNote = (policy: WinPolicy): string => `HSII stage-3/4 wins: win policy ${POLICY_TEXT[policy]} (--win-policy)`;

/** The appointment rule a request's STSS rows follow. */
const partnersOf = (r: CompareRequest): AppointmentPartners => r.appointmentPartners ?? "target";

/** What an STSS comparison says of the appointment rule, in `report stss`'s words (the CLI and the page both). */
export const appointmentPartnersNote = (partners: AppointmentPartners): string =>
  `appointment partners (--appointment-partners): ${partners}${partners === "target"
    ? " (default; STSS §3.2 counts only conversations between the performer and the target person): appointment conversations with someone else are no items"
    : ": every appointment conversation counts, with the target person or not"}`;

/**
 * Which rows pack a request reads: the benchmark's, for HSII under a policy
 * other than mean its own (data/compare-rows-hsii-<policy>.bin), whose win
 * metrics are named by that policy, and for STSS with every appointment
 * conversation kept its own (data/compare-rows-stss-all.bin).
 */
export const rowsFileKey = (r: CompareRequest): string =>
  r.benchmark === "hsii" && policyOf(r) !== "mean" ? `hsii-${policyOf(r)}`
    : r.benchmark === "stss" && partnersOf(r) !== "target" ? `stss-${partnersOf(r)}` : r.benchmark;

/** How many unpaired items the page lists: their number grows with the store, and the CLI lists them all. */
export const UNPAIRED_LISTED = 1000;

/** A comparison as the page gets it: the unpaired list cut to UNPAIRED_LISTED, with the full count kept. */
export type PageComparison = Comparison & {unpairedTotal: number};

export function forPage(c: Comparison): PageComparison {
  return {...c, unpaired: c.unpaired.slice(0, UNPAIRED_LISTED), unpairedTotal: c.unpaired.length};
}

/** The line above the unpaired list, saying when it is cut. */
export const unpairedLine = (c: PageComparison): string =>
  `${c.unpairedTotal} unpaired items` + (c.unpairedTotal > c.unpaired.length ? ` (the first ${c.unpaired.length} listed; sociometer compare --format csv lists every one)` : "");

export interface CompareSummary {
  choices: BenchmarkChoices[];
  /** The default comparison of the first benchmark, and the request it answers; null when the store has no rows. */
  first: {request: CompareRequest; comparison: PageComparison} | null;
}

/** A side as a canonical string: keys in a fixed order, so two equal sides compare equal. */
const sideKey = (side: Side): string => JSON.stringify(Object.keys(side).sort().map((k) => [k, side[k as keyof Side]]));

/** Whether two requests ask for the same comparison (options with no value take the library's defaults, so they must be given). */
export function sameRequest(x: CompareRequest, y: CompareRequest): boolean {
  if (x.benchmark !== y.benchmark || sideKey(x.a) !== sideKey(y.a) || sideKey(x.b) !== sideKey(y.b)) return false;
  if (x.benchmark === "hsii" && policyOf(x) !== policyOf(y)) return false;
  if (x.benchmark === "stss" && partnersOf(x) !== partnersOf(y)) return false;
  const keys = new Set([...Object.keys(x.options), ...Object.keys(y.options)]) as Set<keyof CompareOptions>;
  for (const k of keys) if (x.options[k] !== y.options[k]) return false;
  return true;
}

/** JSON keeps no NaN or ±Infinity (an unpaired metric's bootstrap, a rate's Wilcoxon p): they travel as {"nonFinite": "NaN"}. */
export const summaryJson = (summary: CompareSummary): string =>
  JSON.stringify(summary, (_, v) => (typeof v === "number" && !Number.isFinite(v) ? {nonFinite: String(v)} : v));

/** Reads summaryJson's text back, non-finite numbers included. */
export const parseSummary = (text: string): CompareSummary =>
  JSON.parse(text, (_, v) => (v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && typeof v.nonFinite === "string" ? Number(v.nonFinite) : v));
