// Data for the overview page: what the store holds, from the `overview` table
// (data/overview.parquet, decoded directly), split by section.

import type {Database} from "./duckdb.js";
import {orderBy, type Row} from "./tables.js";

/** One row of data/overview.parquet; columns that do not apply to a section are null. */
export interface OverviewRow {
  section: "source" | "benchmark" | "model" | "rater";
  benchmark: string;
  name: string;
  /** A source's format, a rater's kind (llm, human, rule). */
  kind: string | null;
  /** Evaluated episodes held, played, rated, or (for a source) contributed or scored. */
  episodes: number;
  /** How many of those episodes are synthetic. */
  synthetic: number;
  /**
   * Sources and benchmarks: definitions and inputs (STSS tasks, InformativeBench
   * schedules), which nobody played, so they are not episodes
   * (loaders/queries/store-contents.ts); null in the other sections.
   */
  inputs: number | null;
  /** How many of those definitions and inputs are synthetic. */
  inputs_synthetic: number | null;
  records: number | null;
  messages: number | null;
  /** Benchmarks: evaluated episodes with at least one message (what the episode viewer can show). */
  transcripts: number | null;
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
  /** Evaluated episodes over all benchmarks, and how many are synthetic. */
  episodes: number;
  synthetic: number;
  /** Definitions and inputs over all benchmarks, and how many are synthetic. */
  inputs: number;
  inputsSynthetic: number;
}

/** The overview from the decoded `overview` table, split by section, each in the order the loader's SQL gives. */
export function overviewData(table: readonly Row[]): Overview {
  const all = orderBy(table as unknown as OverviewRow[], ["section", "benchmark", {column: "episodes", desc: true}, "name"]);
  const of = (section: OverviewRow["section"]) => all.filter((r) => r.section === section);
  const benchmarks = of("benchmark");
  return {
    sources: of("source"),
    benchmarks,
    models: of("model"),
    raters: of("rater"),
    episodes: benchmarks.reduce((s, r) => s + r.episodes, 0),
    synthetic: benchmarks.reduce((s, r) => s + r.synthetic, 0),
    inputs: benchmarks.reduce((s, r) => s + (r.inputs ?? 0), 0),
    inputsSynthetic: benchmarks.reduce((s, r) => s + (r.inputs_synthetic ?? 0), 0),
  };
}

/** Imported files grouped by benchmark and format (sourceGroupsSql): the overview's Sources table. */
export interface SourceGroup {
  benchmark: string;
  kind: string;
  files: number;
  records: number;
  rejected: number;
  episodes: number;
  synthetic: number;
  inputs: number;
  inputs_synthetic: number;
  scores: number;
  first_imported: string;
  last_imported: string;
}

/** The source groups from the decoded table, in the SQL's order (benchmark, format). */
export function sourceGroupRows(table: readonly Row[] | undefined): SourceGroup[] {
  return orderBy((table ?? []) as unknown as SourceGroup[], ["benchmark", "kind"]);
}

/** The overview from a page's DuckDB-wasm that loaded the `overview` table (the agreement page). */
export async function loadOverview(db: Database): Promise<Overview> {
  return overviewData(await db.query("SELECT * FROM overview"));
}

/** The "Synthetic" column: "no", "yes" (all) or "n of m", for `episodes` of which `synthetic` are synthetic. */
export function syntheticLabel(episodes: number, synthetic: number): string {
  if (synthetic === 0) return "no";
  if (synthetic === episodes) return "yes";
  return `${synthetic} of ${episodes}`;
}

/**
 * The "Synthetic" column of a row that may hold definitions and inputs too:
 * the episodes' label, then the inputs' ("yes; inputs: yes"); with no episodes,
 * the inputs' label alone.
 */
export function syntheticRowLabel(row: Pick<OverviewRow, "episodes" | "synthetic" | "inputs" | "inputs_synthetic">): string {
  const inputs = row.inputs ?? 0;
  if (inputs === 0) return syntheticLabel(row.episodes, row.synthetic);
  const ofInputs = syntheticLabel(inputs, row.inputs_synthetic ?? 0);
  return row.episodes === 0 ? ofInputs : `${syntheticLabel(row.episodes, row.synthetic)}; inputs: ${ofInputs}`;
}
