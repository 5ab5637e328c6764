// Disagreements (issue 33, item 2): the instances (episode, agent, dimension)
// where rater A and rater B differ most, or where the human annotators spread
// widest among themselves. The scores are the agreement audit's
// (METRICS.md § Evaluator agreement): B = humans is pairInstances' human
// score, so this ranks exactly the pairs the agreement table is computed on.
// Shared by `sociometer report disagreements` and the agreement page.

import {HUMANS, pairInstances, scoresByInstance, type RaterChoice, type RaterScore} from "./agreement.js";
import {extremes} from "./stats.js";

/** One ranked instance. Among the annotators alone, `a` and `b` are their lowest and highest scores. */
export interface Disagreement {
  episode_id: string;
  agent: number;
  dimension: string;
  a: number;
  b: number;
  /** |A − B|; among the annotators alone, their range. */
  gap: number;
  /** max − min of the annotators' scores (A left out when A is one of them); null with fewer than two. */
  range: number | null;
  /** How many annotators scored the instance (A left out when A is one of them). */
  annotators: number;
  /** Every annotator in `annotators`, by name, with their score (repeats already averaged). */
  humans: {rater: string; value: number}[];
}

export interface DisagreementOptions {
  /** One dimension's key, or null for every dimension ranked together. */
  dimension?: string | null;
  /** Keep only instances whose gap is at least this. */
  minGap?: number;
  /** At most this many instances (default 20). */
  limit?: number;
}

export const DEFAULT_DISAGREEMENT_LIMIT = 20;

// Code-unit order, not localeCompare: the browser and Node must break ties alike.
const before = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/** Widest gap first; ties by episode id, agent, then dimension, so page and CLI list the same rows. */
export function compareDisagreements(x: Disagreement, y: Disagreement): number {
  return y.gap - x.gap || before(x.episode_id, y.episode_id) || x.agent - y.agent || before(x.dimension, y.dimension);
}

/**
 * The instances where `a` and `b` differ most, |A − B| descending; with `b`
 * null, the instances two or more annotators scored, by the annotators' range.
 */
export function disagreements(scores: readonly RaterScore[], a: RaterChoice, b: RaterChoice | null, options: DisagreementOptions = {}): Disagreement[] {
  const dimension = options.dimension ?? null;
  const minGap = options.minGap ?? 0;
  const limit = options.limit ?? DEFAULT_DISAGREEMENT_LIMIT;
  const among = b === null;
  const excluded = a !== HUMANS && a.rater;
  const named = new Map<string, {rater: string; value: number}[]>();
  for (const [key, list] of scoresByInstance(scores)) {
    named.set(key, list.filter((r) => r.rater_kind === "human" && r.rater !== excluded).map((r) => ({rater: r.rater, value: r.value})));
  }
  const out: Disagreement[] = [];
  for (const p of pairInstances(scores, among ? HUMANS : a, among ? HUMANS : b)) {
    if (dimension !== null && p.dimension !== dimension) continue;
    const spread = p.humans.length >= 2 ? extremes(p.humans) : null;
    if (among && !spread) continue;
    const item: Disagreement = {
      episode_id: p.episode_id, agent: p.agent, dimension: p.dimension,
      a: among ? spread!.min : p.judge, b: among ? spread!.max : p.other,
      gap: among ? spread!.max - spread!.min : Math.abs(p.judge - p.other),
      range: spread ? spread.max - spread.min : null, annotators: p.humans.length,
      humans: named.get(`${p.episode_id}\u0000${p.agent}\u0000${p.dimension}`) ?? [],
    };
    if (item.gap >= minGap) out.push(item);
  }
  return out.sort(compareDisagreements).slice(0, limit);
}

/** A rater's rationale of one instance, as DISAGREEMENT_RATIONALES_SQL gives it. */
export interface RationaleRow {
  episode_id: string;
  agent: number;
  dimension: string;
  rater: string;
  rationale: string;
}

const rationaleKey = (episode: string, agent: number, dimension: string, rater: string) => `${episode}\u0000${agent}\u0000${dimension}\u0000${rater}`;

/** Rationales by instance and rater, for rationaleText. */
export const rationaleIndex = (rows: readonly RationaleRow[]): Map<string, string> =>
  new Map(rows.map((r) => [rationaleKey(r.episode_id, r.agent, r.dimension, r.rater), r.rationale]));

// Rationales are one line in every output: a table cell, a CSV field and the page's text alike.
const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

const NONE = "(no rationale)";

/**
 * What one side of an item said: a named rater's rationale, or for the
 * humans every annotator's, each with their name and score ("h1 (7): …").
 */
export function rationaleText(item: Disagreement, side: RaterChoice, rationales: ReadonlyMap<string, string>): string {
  const of = (rater: string) => {
    const text = rationales.get(rationaleKey(item.episode_id, item.agent, item.dimension, rater));
    return text === undefined ? NONE : oneLine(text) || NONE;
  };
  if (side !== HUMANS) return of(side.rater);
  return item.humans.map((h) => `${h.rater} (${Number(h.value.toFixed(3))}): ${of(h.rater)}`).join(" | ");
}

/** The episode ids whose rationales a list of items needs. */
export const episodesOf = (items: readonly Disagreement[]): string[] => [...new Set(items.map((i) => i.episode_id))];

/** One list the agreement page can show: rater A against B (null: the annotators among themselves) on one dimension (null: every dimension). */
export interface DisagreementList {
  a: string;
  b: string | null;
  dimension: string | null;
  /** The instances ranked, before the cut to the top: what the page's default choice maximises. */
  paired: number;
  items: Disagreement[];
}

/**
 * Every list the agreement page offers, each cut to its top `perList`: an
 * LLM or rule rater against the humans or another such rater, an annotator
 * against the other annotators' mean, and the annotators among themselves, on
 * every dimension and each one alone. Lists with nothing paired are left out.
 * Mirror images (the humans against a judge) and pairs of named annotators
 * are the CLI's alone: at a few dozen annotators those pairs would outnumber
 * everything else the page ships.
 */
export function disagreementLists(scores: readonly RaterScore[], dimensions: readonly string[], perList = DEFAULT_DISAGREEMENT_LIMIT): DisagreementList[] {
  const kinds = new Map<string, string>();
  for (const s of scores) kinds.set(s.rater, s.rater_kind);
  const names = [...kinds.keys()].sort(before);
  const machines = names.filter((r) => kinds.get(r) !== "human");
  const annotators = names.filter((r) => kinds.get(r) === "human");
  const hasHumans = annotators.length > 0;
  const pairs: [RaterChoice, RaterChoice | null][] = [
    ...machines.flatMap((r): [RaterChoice, RaterChoice | null][] => [...(hasHumans ? [[{rater: r}, HUMANS] as [RaterChoice, RaterChoice]] : []), ...machines.filter((o) => o !== r).map((o): [RaterChoice, RaterChoice] => [{rater: r}, {rater: o}])]),
    ...(hasHumans ? [[HUMANS, null] as [RaterChoice, null]] : []),
    ...(annotators.length > 1 ? annotators.map((r): [RaterChoice, RaterChoice] => [{rater: r}, HUMANS]) : []),
  ];
  const name = (c: RaterChoice) => (c === HUMANS ? HUMANS : c.rater);
  const out: DisagreementList[] = [];
  for (const [a, b] of pairs) {
    const all = disagreements(scores, a, b, {limit: Infinity});
    if (!all.length) continue;
    const head = {a: name(a), b: b === null ? null : name(b)};
    out.push({...head, dimension: null, paired: all.length, items: all.slice(0, perList)});
    for (const dimension of dimensions) {
      const mine = all.filter((i) => i.dimension === dimension);
      if (mine.length) out.push({...head, dimension, paired: mine.length, items: mine.slice(0, perList)});
    }
  }
  return out;
}
