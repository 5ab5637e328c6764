// The benchmarks a comparison covers, the keys that name its sides, and the
// link to two episodes side by side: apart from src/lib/compare.ts, so that the
// Compare page draws its first view without loading the paired tests'
// distribution functions (about 160 modules in the browser).

export const COMPARE_BENCHMARKS = ["sotopia", "lifelong", "hsii", "stss", "informativebench"] as const;
export type CompareBenchmark = (typeof COMPARE_BENCHMARKS)[number];

export const SIDE_KEYS = ["model", "rater", "run", "source", "setting", "memory", "cot"] as const;
export type SideKey = (typeof SIDE_KEYS)[number];

/** The keys that name a side of each benchmark (a key outside these has nothing to select). */
export const BENCHMARK_KEYS: Readonly<Record<CompareBenchmark, readonly SideKey[]>> = {
  sotopia: ["model", "rater", "run", "source"],
  lifelong: ["model", "rater", "run", "source", "memory"],
  hsii: ["model", "rater", "source", "cot"],
  stss: ["model", "rater", "run", "source", "setting"],
  informativebench: ["model", "source", "setting"],
};

/** The link to the episode viewer showing A and B side by side. */
export const sideBySideHref = (episodeA: string, episodeB: string): string =>
  `episodes?episode=${encodeURIComponent(episodeA)}&vs=${encodeURIComponent(episodeB)}`;
