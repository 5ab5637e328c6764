// The names, labels and p-value wording of evaluator agreement (src/lib/agreement.ts),
// apart from its statistics: what the agreement page needs to draw its first
// table from the build-time summary, without the distribution functions that
// the statistics import (about 150 modules in the browser).

/**
 * What "within one standard deviation of the human scores" measures against:
 * `dimension` (default): the sample sd of the human scores over all instances of the dimension;
 * `annotators`: the sample sd of the instance's own annotators (instances with ≥ 2 only).
 */
export type SpreadBasis = "dimension" | "annotators";

/** Who is compared: one named rater, or the human score (mean over human annotators). */
export type RaterChoice = {rater: string} | "humans";

export const HUMANS = "humans" as const;

export const raterLabel = (c: RaterChoice): string => (c === HUMANS ? "mean of human annotators" : c.rater);

/**
 * Why the pooled row has no correlation. Each dimension has its own range and
 * level (SEC and SOC in [-10, 0], BEL and GOAL high in [0, 10]), so over the
 * dimensions pooled both raters' scores cluster by dimension and r mostly
 * measures those gaps (0.96 on the samples next to per-dimension r of
 * 0.68–0.91). Kappa is different: scores are binned within their own
 * dimension first, which is how SOTOPIA pools it.
 */
export const POOLED_CORRELATION_REASON =
  "not computed over several dimensions pooled: their ranges and levels differ ([-10, 0], [-5, 5], [0, 10]), so r would mostly measure the gaps between dimensions; read the per-dimension rows";

/**
 * What each kappa of the agreement table is over, as page and CLI say it:
 * the annotators' kappa as the paper defines it (SOTOPIA Appendix E.1), the
 * same whatever rater A is; the kappa with A over A's own instances.
 */
export const ANNOTATORS_KAPPA_NOTE =
  "human annotators: Randolph's kappa among every annotator, over every instance two or more of them scored, the same whatever rater A is (the paper's definition); " +
  "humans and A: A counted as one more rater (an annotator as A once), over the instances paired for A and B that an annotator other than A also scored";

/** What reports print for a p-value that underflowed to 0 in double precision: a bound, never "0". */
export const P_UNDERFLOW = "< 1e-300";

/** A p-value as a report shows it: the number, or P_UNDERFLOW where it underflowed to 0. */
export const reportedP = (p: number): number | string => (p === 0 ? P_UNDERFLOW : p);

/** A p-value as pages print it: "< 1e-300" where it underflowed to 0 (as reports), else 3 decimals or 2 significant digits. */
export function pText(p: number): string {
  if (Number.isNaN(p)) return "n/a";
  if (p === 0) return P_UNDERFLOW;
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}
