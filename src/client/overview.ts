// Data for the overview page: what the store holds, from the `overview` table
// (data/overview.parquet), split by section.

import type {Database} from "./duckdb.js";

/** One row of data/overview.parquet; columns that do not apply to a section are null. */
export interface OverviewRow {
  section: "source" | "benchmark" | "model" | "rater";
  benchmark: string;
  name: string;
  /** A source's format, a rater's kind (llm, human, rule). */
  kind: string | null;
  /** Episodes held, played, rated, or (for a source) contributed or scored. */
  episodes: number;
  /** How many of those episodes are synthetic. */
  synthetic: number;
  records: number | null;
  messages: number | null;
  seats: number | null;
  scores: number | null;
  rejected: number | null;
  imported_at: string | null;
}

export interface Overview {
  sources: OverviewRow[];
  benchmarks: OverviewRow[];
  models: OverviewRow[];
  raters: OverviewRow[];
  episodes: number;
  synthetic: number;
}

export async function loadOverview(db: Database): Promise<Overview> {
  const all = await db.query<OverviewRow>("SELECT * FROM overview ORDER BY section, benchmark, episodes DESC, name");
  const of = (section: OverviewRow["section"]) => all.filter((r) => r.section === section);
  const benchmarks = of("benchmark");
  return {
    sources: of("source"),
    benchmarks,
    models: of("model"),
    raters: of("rater"),
    episodes: benchmarks.reduce((s, r) => s + r.episodes, 0),
    synthetic: benchmarks.reduce((s, r) => s + r.synthetic, 0),
  };
}

/** The "Synthetic" column: "no", "yes" (all) or "n of m", for `episodes` of which `synthetic` are synthetic. */
export function syntheticLabel(episodes: number, synthetic: number): string {
  if (synthetic === 0) return "no";
  if (synthetic === episodes) return "yes";
  return `${synthetic} of ${episodes}`;
}
