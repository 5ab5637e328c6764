// SOTOPIA Table 3 on the page: every (model, partner) group against the
// reference group. Apart from sotopia.ts because its t-tests load the
// distribution functions, which the page loads only after its first chart.

import {compareWithReference, type ComparedCell} from "../lib/sotopia-significance.js";
import {pairwiseMatrix, type SotopiaGroupRow} from "../lib/sotopia.js";
import {DIMENSION_CHOICES, groupKey, type GroupKey} from "./sotopia.js";

export type {ComparedCell};

/**
 * SOTOPIA Table 3: for each dimension (and overall), every group's cell of the
 * pairwise matrix compared with the reference group by Student's t-test.
 * Keyed by dimension, then by group.
 */
export function referenceComparison(
  rows: readonly SotopiaGroupRow[],
  {rater, models, reference}: {rater: string; models: readonly string[]; reference: GroupKey},
): Map<string, Map<string, ComparedCell>> {
  const keep = new Set(models);
  const out = new Map<string, Map<string, ComparedCell>>();
  for (const d of DIMENSION_CHOICES) {
    const cells = pairwiseMatrix(rows, {rater, dimension: d.key}).filter((c) => keep.has(c.model));
    out.set(d.key, new Map(compareWithReference(cells, reference).map((c) => [groupKey(c), c])));
  }
  return out;
}
