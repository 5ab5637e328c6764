// Adjusting a family of p-values for multiple comparisons. The tests one page
// shows together (one per dimension or metric) are a family: reporting each
// raw p invites reading the smallest of seven as if it were the only test.

export type MultiplicityMethod = "holm" | "bh" | "none";

export const DEFAULT_MULTIPLICITY: MultiplicityMethod = "holm";

export const MULTIPLICITY_METHODS: readonly MultiplicityMethod[] = ["holm", "bh", "none"];

/** How each method is named on pages and in the CLI, in one phrase. */
export const MULTIPLICITY_LABELS: Readonly<Record<MultiplicityMethod, string>> = {
  holm: "Holm (family-wise error rate)",
  bh: "Benjamini–Hochberg (false discovery rate)",
  none: "none (raw p-values)"
};

/** Parses a method name as typed in the CLI or a page address; throws listing the choices. */
export function multiplicityMethod(name: string): MultiplicityMethod {
  const found = MULTIPLICITY_METHODS.find((m) => m === name.toLowerCase());
  if (!found) throw new Error(`unknown multiplicity adjustment "${name}": choose one of ${MULTIPLICITY_METHODS.join(", ")}`);
  return found;
}

/**
 * Adjusted p-values in the order given. A NaN p (a test that could not be
 * computed) stays NaN and is not counted in the family's size m.
 *
 * - holm: the i-th smallest p becomes max over j ≤ i of min(1, (m − j + 1)·p_(j)).
 * - bh: the i-th smallest p becomes min over j ≥ i of min(1, m·p_(j) / j).
 */
export function adjustPValues(ps: readonly number[], method: MultiplicityMethod = DEFAULT_MULTIPLICITY): number[] {
  for (const p of ps) {
    if (!Number.isNaN(p) && !(p >= 0 && p <= 1)) throw new RangeError(`a p-value must lie in [0, 1]: got ${p}`);
  }
  if (method === "none") return ps.slice();
  const order: number[] = [];
  for (let i = 0; i < ps.length; i++) if (!Number.isNaN(ps[i])) order.push(i);
  order.sort((a, b) => ps[a] - ps[b] || a - b);
  const m = order.length;
  const adjusted = ps.map(() => NaN);
  if (method === "holm") {
    let running = 0;
    for (let rank = 0; rank < m; rank++) {
      running = Math.max(running, Math.min(1, (m - rank) * ps[order[rank]]));
      adjusted[order[rank]] = running;
    }
  } else {
    let running = 1;
    for (let rank = m - 1; rank >= 0; rank--) {
      running = Math.min(running, (m * ps[order[rank]]) / (rank + 1));
      adjusted[order[rank]] = Math.min(1, running);
    }
  }
  return adjusted;
}
