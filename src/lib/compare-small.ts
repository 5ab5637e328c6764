// Small samples said loudly (issue 33, item 6): a metric compared on fewer
// than SMALL_PAIRED pairs is flagged beside its n, and an interval that rests
// on df ≤ WEAK_DF (a paired t on three pairs or fewer; a rate on as few) is
// flagged as not informative, and the forest plot does not draw it: a t
// interval on df 1 is ±12.7 standard errors wide, which reads as a finding
// only because a line was drawn. The CLI and the page flag the same metrics.

import type {Comparison, MetricComparison} from "./compare.js";

/** Below this many pairs a metric's difference is flagged as a small sample. */
export const SMALL_PAIRED = 10;
/** An interval resting on this many degrees of freedom or fewer is flagged, and not drawn. */
export const WEAK_DF = 2;

/** The degrees of freedom of a metric's t interval, as its test names them ("paired t (df 7)", "unpaired: Welch t (df 3.4)"); null for a rate's, which has none. */
export function intervalDf(m: Pick<MetricComparison, "test">): number | null {
  const match = /\bt \(df ([0-9.]+)\)/.exec(m.test);
  return match ? Number(match[1]) : null;
}

/** Whether the comparison is of independent samples (`--unpaired`), where n paired is not the n. */
const unpairedTest = (m: Pick<MetricComparison, "test">): boolean => m.test.startsWith("unpaired");

export interface SampleFlags {
  /** "only n paired (fewer than 10)", or null. */
  small: string | null;
  /** Why the intervals are not informative ("df 1"), or null. */
  weak: string | null;
}

/**
 * The flags of one metric: small when a paired comparison has fewer than
 * SMALL_PAIRED pairs; weak when its t interval rests on df ≤ WEAK_DF, or, for
 * a rate (no df), when it rests on WEAK_DF + 1 pairs or fewer, where a t
 * interval would have df ≤ WEAK_DF. The bootstrap interval of the same few
 * pairs is flagged with it: resampling three values says no more.
 */
export function sampleFlags(m: Pick<MetricComparison, "test" | "nPaired" | "kind">): SampleFlags {
  const paired = !unpairedTest(m);
  const small = paired && m.nPaired < SMALL_PAIRED ? `only ${m.nPaired} paired (fewer than ${SMALL_PAIRED})` : null;
  const df = intervalDf(m);
  let weak: string | null = null;
  if (df !== null && df <= WEAK_DF) weak = `df ${df}`;
  else if (df === null && paired && m.kind === "binary" && m.nPaired > 0 && m.nPaired <= WEAK_DF + 1) weak = `${m.nPaired} pairs`;
  return {small, weak};
}

/** The flags as one cell's text for the CLI's table ("" when neither applies). */
export function sampleCaution(m: Pick<MetricComparison, "test" | "nPaired" | "kind">): string {
  const f = sampleFlags(m);
  return [f.small ? `SMALL SAMPLE: ${f.small}` : "", f.weak ? `intervals on ${f.weak}: not informative` : ""].filter(Boolean).join("; ");
}

/** The notes that say which metrics rest on few pairs, after a comparison's own: the CLI prints them in every format, the page above its table. */
export function sampleNotes(c: Pick<Comparison, "metrics">): string[] {
  const small = c.metrics.filter((m) => sampleFlags(m).small);
  const weak = c.metrics.filter((m) => sampleFlags(m).weak);
  return [
    ...(small.length ? [`SMALL SAMPLES: ${small.length === c.metrics.length ? "every metric has" : `${small.map((m) => m.metric).join(", ")} ${small.length === 1 ? "has" : "have"}`} fewer than ${SMALL_PAIRED} pairs (marked beside n paired)`] : []),
    ...(weak.length ? [`intervals resting on df ≤ ${WEAK_DF} (three pairs or fewer) are not informative: ${weak.map((m) => m.metric).join(", ")}`] : []),
  ];
}
