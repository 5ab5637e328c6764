// Score dimensions of every benchmark: the one definition the store, importers,
// pages and reports share (METRICS.md, SOTOPIA-EVAL table).

export type DimensionKind = "likert" | "binary" | "outcome";

export interface Dimension {
  key: string;
  benchmark: string;
  abbrev: string;
  name: string;
  lo: number;
  hi: number;
  kind: DimensionKind;
  /** Scores must be whole numbers (SOTOPIA-EVAL scores are integers). */
  integer: boolean;
}

const sotopia = (key: string, abbrev: string, name: string, lo: number, hi: number): Dimension => ({
  key, benchmark: "sotopia", abbrev, name, lo, hi, kind: "likert", integer: true,
});

/** SOTOPIA-EVAL's seven dimensions, in the paper's order (METRICS.md § SOTOPIA-EVAL). */
export const SOTOPIA_DIMENSIONS: readonly Dimension[] = [
  sotopia("believability", "BEL", "Believability", 0, 10),
  sotopia("relationship", "REL", "Relationship", -5, 5),
  sotopia("knowledge", "KNO", "Knowledge", 0, 10),
  sotopia("secret", "SEC", "Secret", -10, 0),
  sotopia("social_rules", "SOC", "Social rules", -10, 0),
  sotopia("financial_and_material_benefits", "FIN", "Financial and material benefits", -5, 5),
  sotopia("goal", "GOAL", "Goal completion", 0, 10),
];

export const ALL_DIMENSIONS: readonly Dimension[] = [...SOTOPIA_DIMENSIONS];

const byKey = new Map(SOTOPIA_DIMENSIONS.map((d) => [d.key, d]));

export function sotopiaDimension(key: string): Dimension | undefined {
  return byKey.get(key);
}

/**
 * Why a score is not valid for its dimension, or null when it is. Out-of-range
 * scores are reported, never clipped.
 */
export function scoreProblem(dim: Dimension, value: unknown): string | null {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    return `expected a number in [${dim.lo}, ${dim.hi}], got ${JSON.stringify(value)}`;
  }
  if (value < dim.lo || value > dim.hi) {
    return `${value} is outside ${dim.abbrev}'s range [${dim.lo}, ${dim.hi}]`;
  }
  if (dim.integer && !Number.isInteger(value)) {
    return `${value} is not a whole number (${dim.abbrev} is scored in integers)`;
  }
  return null;
}
