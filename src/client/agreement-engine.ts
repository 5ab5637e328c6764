// The agreement table of src/lib/agreement.ts computed over columns (typed
// arrays) instead of one object per score, so that a change of rater, k or
// basis at 100k multiply-rated episodes (1.4M instances, ~4.5M scores) takes
// tens of milliseconds in the page's worker. Every number is the library's:
// sums run over the same instances in the same order, and correlations, bins
// and kappa items go through the library's own functions, so the results are
// equal to the last bit (test/client/agreement-engine.test.ts checks them
// against pairInstances + agreementTable + kappaAmongAllAnnotators).

import {HUMANS, type AgreementRow, type RaterChoice, type SpreadBasis} from "../lib/agreement.js";
import type {DifferenceCounts} from "../components/histogram.js";
import type {AgreementColumns} from "./agreement-columns.js";
import {HumanScores} from "./agreement-humans.js";
import {ALL, Pairing, PLAYED} from "./agreement-pairing.js";
import {sideOf, type Side} from "./agreement-ranks.js";

/** What the page shows for one choice of raters, k and basis. */
export interface AgreementView {
  /** The agreement table as agreementTable gives it, kappa among annotators as kappaAmongAllAnnotators. */
  table: AgreementRow[];
  instances: number;
  episodes: number;
  /** Per dimension key and "all": the histogram of A − B and its ±1 sd band (null unless basis is "dimension" on one dimension). */
  differences: Record<string, DifferenceCounts & {spread: number | null}>;
}

export interface ViewOptions {
  a: RaterChoice;
  b: RaterChoice;
  bins: number;
  basis: SpreadBasis;
}

const NO_RATER = -1;

/**
 * The agreement computations over one set of columns, keeping what a next
 * change can reuse: the annotators' scores per A side, each rater's score per
 * instance, and the last pairings (changing k or the basis reuses a pairing's
 * correlations and ranges; going back to recent raters reuses all of it).
 */
export class AgreementEngine {
  /** Per dimension of the columns: its index among the table's dimensions, or that count for a dimension the table does not list. */
  readonly listed: Int32Array;
  private readonly raterIndex: Map<string, number>;
  /** Raters with at least one score as a human annotator. */
  private readonly annotator: Uint8Array;
  private readonly humanScores = new Map<number, HumanScores>();
  private readonly raterScores = new Map<number, Side>();
  private readonly pairings = new Map<string, Pairing>();

  constructor(readonly columns: AgreementColumns, readonly dimensionKeys: readonly string[]) {
    this.listed = Int32Array.from(columns.dimensions, (d) => {
      const at = dimensionKeys.indexOf(d.key);
      return at < 0 ? dimensionKeys.length : at;
    });
    this.raterIndex = new Map(columns.raters.map((r, i) => [r, i]));
    this.annotator = new Uint8Array(columns.raters.length);
    for (let r = 0; r < columns.rater.length; r++) if (columns.human[r] === 1) this.annotator[columns.rater[r]!] = 1;
  }

  /** A rater's index; NO_RATER for the humans; −2 for a name these rows never saw (it pairs nothing, as in the library). */
  private code(c: RaterChoice): number {
    return c === HUMANS ? NO_RATER : (this.raterIndex.get(c.rater) ?? -2);
  }

  /** The annotators' scores with `excluded` left out (NO_RATER: none), kept for the next calls. */
  private humans(excluded: number): HumanScores {
    return keep(this.humanScores, excluded, 2, () => new HumanScores(this.columns, excluded));
  }

  /** A rater's first score of each instance (as list.find gives it), NaN where it has none. */
  private scores(code: number): Side {
    return keep(this.raterScores, code, 6, () => {
      const c = this.columns;
      const values = new Float64Array(c.rowStart.length - 1).fill(NaN);
      for (let i = 0; i < values.length; i++) {
        for (let r = c.rowStart[i]!, end = c.rowStart[i + 1]!; r < end; r++) {
          if (c.rater[r] === code) {
            values[i] = c.value[r]!;
            break;
          }
        }
      }
      return sideOf(values);
    });
  }

  /** pairInstances(rows, a, b), kept for the next calls. */
  private pairing(a: RaterChoice, b: RaterChoice): Pairing {
    return keep(this.pairings, JSON.stringify([a, b]), 3, () => {
      const codeA = this.code(a);
      // Leaving A out of the humans matters only when A is one of them.
      const humans = this.humans(codeA >= 0 && this.annotator[codeA] === 1 ? codeA : NO_RATER);
      const side = (code: number) => (code === NO_RATER ? humans.side() : this.scores(code));
      return new Pairing(this, side(codeA), side(this.code(b)), humans);
    });
  }

  /**
   * Computes ahead, while the reader reads, one part a next change of these
   * options would need (kappa for another k, the other basis), so that change
   * is a lookup. Returns false when nothing is left; each call takes about
   * one change's time, so the worker answers a new request between calls.
   */
  prefetch({a, b, bins, basis}: ViewOptions): boolean {
    const p = this.pairing(a, b);
    const other: SpreadBasis = basis === "dimension" ? "annotators" : "dimension";
    if (!p.hasWithin(other)) {
      p.table(bins, other);
      return true;
    }
    for (let k = 2; k <= 11; k++) {
      if (k === bins || p.hasKappa(k)) continue;
      p.kappa(k);
      return true;
    }
    return false;
  }

  /** Everything the page shows for one choice of options. */
  view({a, b, bins, basis}: ViewOptions): AgreementView {
    const p = this.pairing(a, b);
    let table = p.table(bins, basis);
    const codeA = this.code(a);
    if (codeA >= 0 && this.annotator[codeA] === 1) {
      // kappaAmongAllAnnotators: kappa among every annotator, on every instance two or more of them scored.
      const among = this.pairing(HUMANS, HUMANS);
      const kappa = among.kappa(bins).humans;
      const L = this.dimensionKeys.length;
      table = table.map((row) => {
        const d = row.dimension === ALL ? L : this.dimensionKeys.indexOf(row.dimension);
        const cell = d * 3 + PLAYED.indexOf(row.played_by as (typeof PLAYED)[number]);
        return among.has(cell) || row.played_by === ALL ? {...row, kappaHumans: kappa[cell]!} : row;
      });
    }
    return {table, instances: p.n, episodes: p.episodes, differences: p.differences(basis)};
  }
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
