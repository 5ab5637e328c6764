// Reliability table (section `reliability` of BENCHMARKS.md): reliabilityReport
// (src/lib/reliability.ts, what `report reliability` and the agreement page's
// worker run) on N synthetic rated instances (episode, agent, dimension), one
// LLM judge and two or three of eight annotators on each, with 1,000 bootstrap
// resamples, against the same report with one resample (its point estimates,
// the setup and a single resample: what the table costs without intervals).

import {loadavg} from "node:os";
import type {RaterScore} from "../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../src/lib/dimensions.js";
import {reliabilityReport} from "../src/lib/reliability.js";
import {SeededRandom} from "../src/lib/resample.js";
import {machine, type BenchContext} from "./helpers.js";

const RESAMPLES = 1000;
const DEFAULT_SIZES = [100_000];

/** Rows for about `instances` rated instances: two agents × seven dimensions per episode. */
export function syntheticRows(instances: number): RaterScore[] {
  const random = new SeededRandom(42);
  const episodes = Math.ceil(instances / (2 * SOTOPIA_DIMENSIONS.length));
  const rows: RaterScore[] = [];
  for (let e = 0; e < episodes; e++) {
    const episode_id = `ep-${String(e).padStart(7, "0")}`;
    const annotators = e % 4 === 0 ? 3 : 2;
    const first = random.nextIndex(8);
    for (const agent of [1, 2]) {
      for (const d of SOTOPIA_DIMENSIONS) {
        const span = d.hi - d.lo;
        const truth = d.lo + random.nextIndex(span + 1);
        const score = (noise: number) => Math.min(d.hi, Math.max(d.lo, truth + random.nextIndex(2 * noise + 1) - noise));
        const base = {episode_id, agent, dimension: d.key, lo: d.lo, hi: d.hi, played_by: "model"};
        rows.push({...base, rater: "judge", rater_kind: "llm", value: score(2)});
        for (let h = 0; h < annotators; h++) rows.push({...base, rater: `annotator-${(first + h) % 8}`, rater_kind: "human", value: score(1)});
      }
    }
  }
  return rows;
}

function time(rows: RaterScore[], resamples: number): number {
  const started = performance.now();
  reliabilityReport(rows, {judges: ["judge"], dimensions: SOTOPIA_DIMENSIONS, resamples, seed: 1});
  return (performance.now() - started) / 1000;
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(context: BenchContext): Promise<string> {
  const loadBefore = loadavg()[0];
  const lines: string[] = [];
  for (const n of context.sizes.length ? context.sizes : DEFAULT_SIZES) {
    const rows = syntheticRows(n);
    const instances = rows.length ? new Set(rows.map((r) => `${r.episode_id}/${r.agent}/${r.dimension}`)).size : 0;
    const points: number[] = [];
    const full: number[] = [];
    for (let r = 0; r < context.repeat; r++) {
      points.push(time(rows, 1));
      context.log(`reliability: ${instances} instances, point estimates ${points.at(-1)!.toFixed(2)} s`);
      full.push(time(rows, RESAMPLES));
      context.log(`reliability: ${instances} instances, ${RESAMPLES} resamples ${full.at(-1)!.toFixed(2)} s`);
    }
    const p = median(points);
    const f = median(full);
    lines.push(`| ${instances.toLocaleString("en-US")} | ${rows.length.toLocaleString("en-US")} | ${p.toFixed(2)} s | ${f.toFixed(2)} s | ${(f / p).toFixed(0)}× | ${((f - p) / RESAMPLES * 1000).toFixed(1)} ms |`);
  }
  return [
    "## Reliability table with bootstrap intervals",
    "",
    `${machine([`load average ${loadBefore.toFixed(2)} before`])}; median of ${context.repeat} runs each, in one process.`,
    "",
    "`reliabilityReport` (src/lib/reliability.ts: the numbers of `sociometer report reliability` and of the agreement page's worker) for one LLM judge against the mean of the annotators and among the annotators, seven dimensions: per dimension six statistics for the judge (r, ρ, α, ICC(2,1), quadratic κ, AC1) and three among the annotators (α, ICC, AC1), resampled together. Synthetic instances (episode, agent, dimension), a judge and two or three of eight annotators on each. *Point estimates* is the same report with one resample (setup, the plain formulas and a single resample); *bootstrap* has 1,000 resamples over episodes, percentile, seed 1.",
    "",
    "| rated instances | score rows | point estimates | bootstrap (1,000) | ratio | per resample |",
    "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ...lines,
  ].join("\n");
}
