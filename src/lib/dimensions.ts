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

/**
 * LIFELONG-SOTOPIA scores: the SOTOPIA-EVAL dimensions on the same ranges, but
 * not restricted to whole numbers (real lifelong logs carry half points).
 */
export const LIFELONG_DIMENSIONS: readonly Dimension[] = SOTOPIA_DIMENSIONS.map((d) => ({...d, benchmark: "lifelong-sotopia", integer: false}));

/** A BELEXT checklist: eight pass/fail checkpoints, in order (1 = passes, 0 = fails). */
export interface CheckpointSet {
  name: string;
  description: string;
  checkpoints: readonly {key: string; label: string}[];
}

/** LIFELONG-SOTOPIA §3.4's checklist (METRICS.md § LIFELONG-SOTOPIA), in the paper's order. */
export const PAPER_CHECKPOINTS: CheckpointSet = {
  name: "paper",
  description: "LIFELONG-SOTOPIA §3.4",
  checkpoints: [
    {key: "no_repeated_sentences", label: "Repetition of sentences"},
    {key: "consistent_with_character", label: "Consistency with character traits"},
    {key: "aligned_with_goals", label: "Consistency with environment goals"},
    {key: "leaves_after_goal", label: "Leaves promptly after goal resolution"},
    {key: "no_goal_verbatim", label: "Repetition of exact goals"},
    {key: "no_stalling", label: "Stalling in a conversation"},
    {key: "responds_to_partner", label: "Character responses"},
    {key: "natural_beginning", label: "Episode beginning"},
  ],
};

/** The eight checkpoints of an independent reimplementation (sonz-ai/sonzai-python), kept under its own names: they are not the paper's. */
export const SONZAI_CHECKPOINTS: CheckpointSet = {
  name: "sonzai-python",
  description: "unofficial reimplementation; its own checklist, not the paper's",
  checkpoints: [
    {key: "no_verbatim_repetition", label: "No verbatim repetition"},
    {key: "character_consistency", label: "Character consistency"},
    {key: "no_stalling", label: "No stalling"},
    {key: "no_mode_collapse", label: "No mode collapse"},
    {key: "appropriate_emotional_register", label: "Appropriate emotional register"},
    {key: "no_unprompted_secret_disclosure", label: "No unprompted secret disclosure"},
    {key: "acknowledges_scenario_change", label: "Acknowledges scenario change"},
    {key: "stays_in_agent_voice", label: "Stays in agent voice"},
  ],
};

export const CHECKPOINT_SETS: readonly CheckpointSet[] = [PAPER_CHECKPOINTS, SONZAI_CHECKPOINTS];

/** The ratings-table dimension of a checkpoint: `checkpoint:<set>:<key>`. */
export const checkpointDimension = (set: CheckpointSet, key: string): string => `checkpoint:${set.name}:${key}`;

const checkpointDimensions: Dimension[] = CHECKPOINT_SETS.flatMap((set) =>
  set.checkpoints.map((c) => ({
    key: checkpointDimension(set, c.key), benchmark: "lifelong-sotopia", abbrev: c.key, name: c.label, lo: 0, hi: 1, kind: "binary" as const, integer: true,
  })));

/** A penalised BEL as a log reports it, kept to compare with the workbench's own (never used in its place). */
export const LOGGED_BEL_EXTENDED: Dimension = {
  key: "logged_bel_extended", benchmark: "lifelong-sotopia", abbrev: "BELEXT (log)", name: "Penalised BEL as logged", lo: 0, hi: 10, kind: "outcome", integer: false,
};

export const ALL_DIMENSIONS: readonly Dimension[] = [...SOTOPIA_DIMENSIONS, ...LIFELONG_DIMENSIONS, ...checkpointDimensions, LOGGED_BEL_EXTENDED];

/** A benchmark's dimension by key. */
export function dimensionOf(benchmark: string, key: string): Dimension | undefined {
  return ALL_DIMENSIONS.find((d) => d.benchmark === benchmark && d.key === key);
}

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
    // JSON.stringify would write Infinity (a JSON 1e999, a CSV "Infinity") as null.
    const got = typeof value === "number" ? `${value} (not a finite number)` : JSON.stringify(value);
    return `expected a number in [${dim.lo}, ${dim.hi}], got ${got}`;
  }
  if (value < dim.lo || value > dim.hi) {
    return `${value} is outside ${dim.abbrev}'s range [${dim.lo}, ${dim.hi}]`;
  }
  if (dim.integer && !Number.isInteger(value)) {
    return `${value} is not a whole number (${dim.abbrev} is scored in integers)`;
  }
  return null;
}
