// The agreement table of src/lib/agreement.ts computed over columns (typed
// arrays) instead of one object per score, so that a change of rater, k or
// basis at 100k multiply-rated episodes (1.4M instances, 5.3M scores) costs
// one pass over typed arrays in the page's worker. Every number is the
// library's: the library's sums are exact (so independent of order), and the
// engine adds the same terms exactly, count × term per class of equal terms
// (kappa's terms by the same divisions, once per pattern of scores), so the
// results are equal to the last bit (test/client/agreement-engine.test.ts
// checks them with Object.is against pairInstances + agreementTable +
// kappaAmongAllAnnotators).

import {HUMANS, withAnnotatorsKappa, type AgreementRow, type RaterChoice, type SpreadBasis} from "../lib/agreement.js";
import type {AgreementColumns} from "./agreement-columns.js";
import {HumanScores, humanRows} from "./agreement-humans.js";
import {AmongAnnotators} from "./agreement-among.js";
import {ALL, Pairing, PairingPass, PASS_SLICE, PLAYED, type PairingSource, type ViewDifferences} from "./agreement-pairing.js";
import {NumberIds, type Side} from "./agreement-ranks.js";
import {viewKey, type ViewOptions} from "./agreement-view-key.js";

/** What the page shows for one choice of raters, k and basis. */
export interface AgreementView {
  /** The agreement table as agreementTable gives it, kappa among annotators as kappaAmongAllAnnotators. */
  table: AgreementRow[];
  instances: number;
  episodes: number;
  /** Per dimension key and "all": the histogram of A − B and its ±1 sd band (null unless basis is "dimension" on one dimension). */
  differences: ViewDifferences;
}

export {viewKey, type ViewOptions} from "./agreement-view-key.js";

const NO_RATER = -1;

/** What AgreementEngine.prefetchStep returns when it took a step toward a view without finishing it. */
export const STEP = "step";

/**
 * The annotators' instances that kappa among every annotator counts in one
 * step ahead (one increment each: 1.4M at 100k take ~20 ms cold), so a
 * request waits a few milliseconds for a slice.
 */
export const AMONG_SLICE = 1 << 18;

/**
 * The agreement computations over one set of columns, keeping what a next
 * change can reuse: the annotators' scores per A side, each rater's score per
 * instance, and the last pairings (changing k or the basis reuses a pairing's
 * correlations and ranges; going back to recent raters reuses all of it).
 */
export class AgreementEngine implements PairingSource {
  /** Per dimension of the columns: its index among the table's dimensions, or that count for a dimension the table does not list. */
  readonly listed: Int32Array;
  /** Whether each episode's instances come together (as the rows order them): a pairing then counts episodes as they change. */
  readonly episodesInOrder: boolean;
  private readonly raterIndex: Map<string, number>;
  /** Raters with at least one score as a human annotator. */
  private readonly annotator: Uint8Array;
  /**
   * The rows by rater, in row order within one: rater r's are entries
   * raterStart[r] … raterStart[r + 1] of raterInstance (each row's instance)
   * and raterValue (its score's id among every score's distinct values,
   * `values`), so that a rater's scores are read in one sequential pass.
   */
  private readonly raterStart: Int32Array;
  private readonly raterInstance: Int32Array;
  private readonly raterValue: Int32Array;
  private readonly values = new NumberIds(true);
  /** Every annotator's scores, the base of each leave-one-out. */
  private allHumans?: HumanScores;
  private readonly humanScores = new Map<number, HumanScores>();
  private readonly raterScores = new Map<number, Side>();
  private readonly pairings = new Map<string, Pairing>();
  private readonly passes = new Map<string, PairingPass>();
  private readonly views = new Map<string, AgreementView>();
  private amongAnnotators?: AmongAnnotators;
  /** The view being computed ahead, step by step. */
  private ahead?: {options: ViewOptions; steps: Generator<void, void>};

  /** `slices`: how much one step ahead walks of a pairing's candidates and of the annotators' instances (tests take small ones). */
  constructor(readonly columns: AgreementColumns, readonly dimensionKeys: readonly string[], private readonly slices = {pass: PASS_SLICE, among: AMONG_SLICE}) {
    this.listed = Int32Array.from(columns.dimensions, (d) => {
      const at = dimensionKeys.indexOf(d.key);
      return at < 0 ? dimensionKeys.length : at;
    });
    this.raterIndex = new Map(columns.raters.map((r, i) => [r, i]));
    this.episodesInOrder = nonDecreasing(columns.episode);
    this.annotator = new Uint8Array(columns.raters.length);
    for (let r = 0; r < columns.rater.length; r++) if (columns.human[r] === 1) this.annotator[columns.rater[r]!] = 1;
    // Indexed by rater once, so a new rater costs its own rows, not every row.
    const rows = columns.rater.length;
    this.raterStart = new Int32Array(columns.raters.length + 1);
    for (let r = 0; r < rows; r++) this.raterStart[columns.rater[r]! + 1]++;
    for (let x = 0; x < columns.raters.length; x++) this.raterStart[x + 1] += this.raterStart[x]!;
    this.raterInstance = new Int32Array(rows);
    this.raterValue = new Int32Array(rows);
    byRater(columns, this.raterStart.slice(0, columns.raters.length), this.values, this.raterInstance, this.raterValue);
  }

  /** The instances a rater scored, ascending, one entry per row (an instance it scored twice comes twice). */
  private instancesOf(code: number): Int32Array {
    return this.raterInstance.subarray(this.raterStart[code]!, this.raterStart[code + 1]!);
  }

  /** A rater's index; NO_RATER for the humans; −2 for a name these rows never saw (it pairs nothing, as in the library). */
  private code(c: RaterChoice): number {
    return c === HUMANS ? NO_RATER : (this.raterIndex.get(c.rater) ?? -2);
  }

  /** The annotators' scores with `excluded` left out (NO_RATER: none), kept for the next calls. */
  private humans(excluded: number): HumanScores {
    const all = (this.allHumans ??= HumanScores.all(humanRows(this.columns)));
    if (excluded === NO_RATER) return all;
    return keep(this.humanScores, excluded, 2, () => all.without(excluded, this.instancesOf(excluded)));
  }

  /** A rater's first score of each instance it scored (as list.find gives it), as a side of a pairing; none for a name these rows never saw. */
  private scores(code: number): Side {
    return keep(this.raterScores, code, 6, () => {
      const distinct = new NumberIds(true);
      if (code < 0) return {present: new Int32Array(0), ids: new Int32Array(0), order: distinct.order(), distinct};
      const from = this.raterStart[code]!;
      const to = this.raterStart[code + 1]!;
      const present = new Int32Array(to - from);
      const ids = new Int32Array(to - from);
      const n = firstScores(this.raterInstance, this.raterValue, this.values.values, from, to, distinct, present, ids);
      return {present: present.subarray(0, n), ids: ids.subarray(0, n), order: distinct.order(), distinct};
    });
  }

  /** The pass of pairInstances(rows, a, b) as far as the steps ahead took it, kept until its pairing is made. */
  private pass(a: RaterChoice, b: RaterChoice): PairingPass {
    return keep(this.passes, pairKey(a, b), 2, () => {
      const codeA = this.code(a);
      // Leaving A out of the humans matters only when A is one of them.
      const humans = this.humans(codeA >= 0 && this.annotator[codeA] === 1 ? codeA : NO_RATER);
      const side = (code: number) => (code === NO_RATER ? null : this.scores(code));
      return new PairingPass(this, side(codeA), side(this.code(b)), humans);
    });
  }

  /** pairInstances(rows, a, b), kept for the next calls. */
  private pairing(a: RaterChoice, b: RaterChoice): Pairing {
    const key = pairKey(a, b);
    return keep(this.pairings, key, 3, () => {
      const pass = this.pass(a, b);
      this.passes.delete(key);
      return new Pairing(this, pass);
    });
  }

  /**
   * The options a reader is likely to pick next from these, most likely
   * first: the other basis (the same pairing: nearly free); the raters next
   * to A and to B in the menus (a step of the arrow keys in a menu); every
   * other k (nearest first) on this basis and then on the other, while these
   * raters' pairing is at hand; then every other rater B and every other
   * rater A (LLM raters first, then by their number of scores, as the menus
   * list them). A = B is left out: the page shows no numbers for it.
   */
  neighbours({a, b, bins, basis}: ViewOptions): ViewOptions[] {
    const other: SpreadBasis = basis === "dimension" ? "annotators" : "dimension";
    const ks: number[] = [];
    for (let step = 1; step <= 9; step++) for (const k of [bins - step, bins + step]) if (k >= 2 && k <= 11) ks.push(k);
    const named = this.likelyRaters().map((rater): RaterChoice => ({rater}));
    const menuB = [HUMANS, ...named];
    const out: ViewOptions[] = [];
    const seen = new Set<string>([viewKey({a, b, bins, basis})]);
    const add = (options: ViewOptions) => {
      const key = viewKey(options);
      if (sameChoice(options.a, options.b) || seen.has(key)) return;
      seen.add(key);
      out.push(options);
    };
    add({a, b, bins, basis: other});
    for (const choice of nextInMenu(named, a, b)) add({a: choice, b, bins, basis});
    for (const choice of nextInMenu(menuB, b, a)) add({a, b: choice, bins, basis});
    for (const k of ks) add({a, b, bins: k, basis});
    for (const k of ks) add({a, b, bins: k, basis: other});
    for (const choice of menuB) add({a, b: choice, bins, basis});
    for (const choice of named) add({a: choice, b, bins, basis});
    return out;
  }

  /**
   * Neighbours a reader is likely to pick soon that neighbours() lists late:
   * the first annotator of the menu as A (after every k and every rater B
   * there), when A is not an annotator already. The worker computes them
   * right after the first neighbour.
   */
  likelyChanges(options: ViewOptions): ViewOptions[] {
    const a = options.a;
    if (a !== HUMANS && this.isAnnotator(a.rater)) return [];
    const annotator = this.likelyRaters().find((name) => this.isAnnotator(name));
    return annotator === undefined ? [] : [{...options, a: {rater: annotator}}];
  }

  /** Rater names as the page's menus order them: LLM raters first, then by their number of scores, then by name. */
  namedRaters(): string[] {
    return this.likelyRaters();
  }

  /** Whether a rater scored anything as a human annotator (so as A it is left out of the annotators). */
  isAnnotator(name: string): boolean {
    const code = this.raterIndex.get(name);
    return code !== undefined && this.annotator[code] === 1;
  }

  private likelyRaters(): string[] {
    const c = this.columns;
    return c.raters.map((name, code) => ({name, code, rows: this.raterStart[code + 1]! - this.raterStart[code]!}))
      .sort((x, y) => this.annotator[x.code]! - this.annotator[y.code]! || y.rows - x.rows || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
      .map((r) => r.name);
  }

  /** Kappa among every annotator for k bins, counted and kept now (when there are annotators): the worker's start does it with the starting view. */
  countAnnotatorsKappa(bins: number): void {
    if (this.annotator.includes(1)) this.among().kappa(bins);
  }

  /** Whether kappa among every annotator for k bins is counted and kept: any annotator as A then needs its own pairing only. */
  annotatorsKappaReady(bins: number): boolean {
    return this.amongAnnotators?.ready(bins) ?? false;
  }

  /** Whether the view for these options is computed and kept: the page gets it without waiting. */
  ready(options: ViewOptions): boolean {
    return this.views.has(viewKey(options));
  }

  /**
   * Computes ahead, while the reader reads, the next of these options'
   * neighbours (above) not yet kept, so that a change to it is a lookup.
   * Returns the options it computed, null when all are kept. The whole view
   * at once: the worker goes by prefetchStep instead.
   */
  prefetch(options: ViewOptions): ViewOptions | null {
    for (;;) {
      const step = this.prefetchStep(options);
      if (step !== STEP) return step;
    }
  }

  /**
   * One small step (tens of milliseconds at 100k) of computing ahead for
   * these options' neighbours: STEP when it took one toward a view, the
   * options when it finished their view (kept), null when all are kept. The
   * worker takes one step per turn, so a request that arrives while it
   * computes ahead waits for one step, not a whole view; what the steps
   * computed so far is kept and serves that request too. The neighbours
   * among `first` come right after the first neighbour (the worker passes
   * likelyChanges), after the sides of the raters next in the menus (sideAhead).
   */
  prefetchStep(options: ViewOptions, first: readonly ViewOptions[] = []): ViewOptions | typeof STEP | null {
    if (this.ahead && this.views.has(viewKey(this.ahead.options))) this.ahead = undefined;
    if (!this.ahead) {
      const neighbours = this.neighbours(options);
      const next = inOrder(neighbours, first).find((n) => !this.views.has(viewKey(n)));
      if (!next) return null;
      // Kappa among every annotator is the longest part of any annotator's view as A, and the same for all of
      // them: computed right after the first neighbour (the other basis, nearly free), before any other view.
      if (next !== neighbours[0] && this.annotator.includes(1) && !this.among().ready(options.bins)) {
        const among = this.among();
        if (among.countSome(0)) among.kappa(options.bins);
        else among.countSome(this.slices.among);
        return STEP;
      }
      const side = next === neighbours[0] ? undefined : this.sideAhead(options);
      if (side !== undefined) {
        this.scores(side);
        return STEP;
      }
      this.ahead = {options: next, steps: this.steps(next)};
    }
    if (!this.ahead.steps.next().done) return STEP;
    const done = this.ahead.options;
    this.ahead = undefined;
    this.view(done);
    return done;
  }

  /**
   * A named rater next to A or to B in the menus whose side is not read yet,
   * while its view there is not computed: the worker reads it in a step of
   * its own right after the first neighbour, before the likely changes. A
   * side is one pass over the rater's rows (a second LLM's 700k at 100k:
   * 5–30 ms), so a change to that rater asked before its view is computed
   * ahead waits for its pairing only.
   */
  private sideAhead({a, b, bins, basis}: ViewOptions): number | undefined {
    const named = this.likelyRaters().map((rater): RaterChoice => ({rater}));
    const nextA = nextInMenu(named, a, b).map((choice) => ({choice, options: {a: choice, b, bins, basis}}));
    const nextB = nextInMenu(([HUMANS] as RaterChoice[]).concat(named), b, a).map((choice) => ({choice, options: {a, b: choice, bins, basis}}));
    for (const {choice, options} of nextA.concat(nextB)) {
      const code = this.code(choice);
      if (code >= 0 && !this.raterScores.has(code) && !this.views.has(viewKey(options))) return code;
    }
    return undefined;
  }

  /** The parts of a view, one per step, each kept where the view's own computation finds it. */
  private *steps({a, b, bins, basis}: ViewOptions): Generator<void, void> {
    const codeA = this.code(a);
    const codeB = this.code(b);
    const annotatorA = codeA >= 0 && this.annotator[codeA] === 1;
    this.humans(NO_RATER);
    yield;
    if (annotatorA) {
      this.humans(codeA);
      yield;
    }
    for (const code of [codeA, codeB]) {
      if (code === NO_RATER) continue;
      this.scores(code);
      yield;
    }
    if (!this.pairings.has(pairKey(a, b))) {
      const pass = this.pass(a, b);
      yield;
      while (!pass.advance(this.slices.pass)) yield;
    }
    const p = this.pairing(a, b);
    yield;
    yield* p.steps(bins, basis);
    // Kappa among every annotator is part of every view; once kept (for k bins), it takes no step.
    if (this.annotator.includes(1) && !this.among().ready(bins)) {
      const among = this.among();
      while (!among.countSome(this.slices.among)) yield;
      among.kappa(bins);
      yield;
    }
  }

  /** kappaAmongAllAnnotators' numbers: every annotator's scores, whatever A is. */
  private among(): AmongAnnotators {
    const {dimension, playedByHuman} = this.columns;
    return (this.amongAnnotators ??= new AmongAnnotators(this.humans(NO_RATER), {dimension, playedByHuman, listed: this.listed, L: this.dimensionKeys.length}));
  }

  /** Everything the page shows for one choice of options; kept, so a second ask is a lookup. */
  view(options: ViewOptions): AgreementView {
    // Room for every neighbour of two options at once: prefetching never evicts what it just computed.
    const room = 4 * (this.columns.raters.length + 25);
    return keep(this.views, viewKey(options), room, () => this.compute(options));
  }

  private compute({a, b, bins, basis}: ViewOptions): AgreementView {
    const p = this.pairing(a, b);
    let table = p.table(bins, basis);
    if (this.annotator.includes(1)) {
      // kappaAmongAllAnnotators: kappa among every annotator, on every instance two or more of them scored, whatever A is.
      // Kept apart from the recent pairings: every view needs it, and the worker goes through them all ahead.
      const among = this.among();
      const kappa = among.kappa(bins);
      const L = this.dimensionKeys.length;
      table = withAnnotatorsKappa(table, this.dimensionKeys, {bins, basis}, (dimension, played_by) => {
        const cell = (dimension === ALL ? L : this.dimensionKeys.indexOf(dimension)) * 3 + PLAYED.indexOf(played_by as (typeof PLAYED)[number]);
        return among.has(cell) || played_by === ALL ? kappa[cell]! : undefined;
      });
    }
    return {table, instances: p.n, episodes: p.episodes, differences: p.differences(basis)};
  }
}

/**
 * Every row into its rater's place (fill: each rater's next place, from
 * raterStart), in row order within a rater: its instance, and its score's id
 * among `values`.
 */
function byRater(columns: AgreementColumns, fill: Int32Array, values: NumberIds, raterInstance: Int32Array, raterValue: Int32Array): void {
  const {rowStart, rater, value} = columns;
  for (let i = 0; i + 1 < rowStart.length; i++) {
    for (let r = rowStart[i]!, end = rowStart[i + 1]!; r < end; r++) {
      const at = fill[rater[r]!]!++;
      raterInstance[at] = i;
      raterValue[at] = values.id(value[r]!);
    }
  }
}

/**
 * A rater's rows, entries from … to of raterInstance and raterValue, into
 * the instances they score (present, ascending) and the id of each one's
 * first score among `distinct` (the rater's own values, numbered as met);
 * returns how many. A rater's rows ascend by instance, and within one by
 * row, so the first row met is the first score, as list.find gives it.
 */
function firstScores(raterInstance: Int32Array, raterValue: Int32Array, values: readonly number[], from: number, to: number, distinct: NumberIds, present: Int32Array, ids: Int32Array): number {
  // Each of every score's values (by id) numbered among this rater's once.
  const local = new Int32Array(values.length).fill(-1);
  let n = 0;
  let last = -1;
  for (let x = from; x < to; x++) {
    const i = raterInstance[x]!;
    if (i === last) continue;
    last = i;
    present[n] = i;
    const v = raterValue[x]!;
    let id = local[v]!;
    if (id < 0) id = local[v] = distinct.id(values[v]!);
    ids[n++] = id;
  }
  return n;
}

/** The neighbours with those of `first` moved right after the first one, in first's order. */
function inOrder(neighbours: readonly ViewOptions[], first: readonly ViewOptions[]): readonly ViewOptions[] {
  if (first.length === 0 || neighbours.length === 0) return neighbours;
  const keys = new Set(neighbours.map(viewKey));
  const moved = first.filter((o) => keys.has(viewKey(o)));
  const movedKeys = new Set(moved.map(viewKey));
  return [neighbours[0]!].concat(moved, neighbours.slice(1).filter((n) => !movedKeys.has(viewKey(n))));
}

function nonDecreasing(values: Int32Array): boolean {
  for (let i = 1; i < values.length; i++) if (values[i]! < values[i - 1]!) return false;
  return true;
}

const pairKey = (a: RaterChoice, b: RaterChoice): string => JSON.stringify([a, b]);

const sameChoice = (x: RaterChoice, y: RaterChoice): boolean => (x === HUMANS ? y === HUMANS : y !== HUMANS && x.rater === y.rater);

/** The entries before and after `current` in a menu, stepping over `other` (A = B shows nothing): where the arrow keys go. */
function nextInMenu(menu: readonly RaterChoice[], current: RaterChoice, other: RaterChoice): RaterChoice[] {
  const at = menu.findIndex((c) => sameChoice(c, current));
  if (at < 0) return [];
  const out: RaterChoice[] = [];
  for (const step of [-1, 1]) {
    let i = at + step;
    if (i >= 0 && i < menu.length && sameChoice(menu[i]!, other)) i += step;
    if (i >= 0 && i < menu.length) out.push(menu[i]!);
  }
  return out;
}

/** The value under `key`, made by `make` when missing; at most `size` kept, the least recently used dropped first. */
function keep<K, V>(cache: Map<K, V>, key: K, size: number, make: () => V): V {
  let value = cache.get(key);
  if (value !== undefined) cache.delete(key);
  else {
    value = make();
    if (cache.size >= size) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, value);
  return value;
}
