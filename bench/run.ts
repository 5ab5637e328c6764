// `npm run bench`: runs the benchmarks and writes each one's section of
// BENCHMARKS.md (between <!-- bench:NAME --> and <!-- /bench:NAME -->),
// keeping the other sections. Benchmarks measure; tests check.
//
//   tsx bench/run.ts [NAME…] [--sizes 2000,10000] [--repeat 3] [--keep] [--out BENCHMARKS.md]
//
// NAME is one of the benchmarks below (all of them by default). BENCH_SIZES
// sets --sizes from the environment. Each benchmark is a module exporting
// `run(context)`; the helpers they share (measuring in a fresh child process,
// describing the machine) are in helpers.ts, and this file keeps the
// markdown section.

import {existsSync, readFileSync, writeFileSync} from "node:fs";
import {join, resolve} from "node:path";
import {pathToFileURL} from "node:url";
import {parseArgs} from "node:util";
import {REPO, type BenchContext} from "./helpers.js";

export interface BenchModule {
  /** Runs the benchmark and returns its BENCHMARKS.md section body (markdown, without the markers). */
  run(context: BenchContext): Promise<string>;
}

/** The benchmarks, by section name. Add one by writing bench/<name>.ts and listing it here. */
const BENCHES: Readonly<Record<string, () => Promise<BenchModule>>> = {
  import: () => import("./import.js"),
  "import-incremental": () => import("./import-incremental.js"),
  "import-kill": () => import("./import-kill.js"),
  judge: () => import("./judge.js"),
  explorer: () => import("./explorer.js"),
  viewer: () => import("./viewer.js"),
  "run-informativebench": () => import("./run-informativebench.js"),
  pages: () => import("./pages.js"),
  "pack-growth": () => import("./pack-growth.js"),
  reliability: () => import("./reliability.js"),
  "run-stss": () => import("./run-stss.js"),
  compare: () => import("./compare.js"),
  "compare-default": () => import("./compare-default.js"),
  "named-options": () => import("./named-options.js"),
  "agreement-page": () => import("./agreement-page.js"),
  build: () => import("./build.js"),
  dev: () => import("./dev.js"),
};

/** Replaces (or appends) the section `name` of a markdown document, keeping everything else. */
export function replaceSection(document: string, name: string, body: string): string {
  const open = `<!-- bench:${name} -->`, close = `<!-- /bench:${name} -->`;
  const block = `${open}\n${body.trim()}\n${close}`;
  const start = document.indexOf(open), end = document.indexOf(close);
  if (start >= 0 && end > start) return document.slice(0, start) + block + document.slice(end + close.length);
  return `${document.trimEnd()}\n\n${block}\n`;
}

const PREAMBLE = `# Benchmarks

Written by \`npm run bench\` (\`bench/run.ts\`). Each section between
\`<!-- bench:NAME -->\` markers is replaced when its benchmark runs again;
anything outside the markers is kept.
`;

function parseRepeat(text: string | undefined): number {
  const n = text === undefined ? 3 : Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--repeat / BENCH_REPEAT must be a whole number ≥ 1, not ${JSON.stringify(text)}`);
  return n;
}

function parseSizes(text: string | undefined): number[] {
  if (!text) return [];
  const sizes = text.split(",").map((s) => s.trim()).filter(Boolean).map((s) => Number(s.replace(/_/g, "")));
  for (const n of sizes) if (!Number.isInteger(n) || n <= 0) throw new Error(`--sizes / BENCH_SIZES: ${JSON.stringify(text)} is not a list of positive integers`);
  return sizes.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const {values, positionals} = parseArgs({
    allowPositionals: true,
    options: {sizes: {type: "string"}, keep: {type: "boolean", default: false}, out: {type: "string"}, dir: {type: "string"}, repeat: {type: "string"}},
  });
  const names = positionals.length ? positionals : Object.keys(BENCHES);
  for (const n of names) if (!BENCHES[n]) throw new Error(`unknown benchmark ${JSON.stringify(n)} (known: ${Object.keys(BENCHES).join(", ")})`);
  const context: BenchContext = {
    sizes: parseSizes(values.sizes ?? process.env.BENCH_SIZES),
    keep: values.keep ?? false,
    repeat: parseRepeat(values.repeat ?? process.env.BENCH_REPEAT),
    dir: resolve(values.dir ?? join(REPO, ".bench")),
    log: (message) => process.stderr.write(`[bench] ${message}\n`),
  };
  const out = resolve(values.out ?? join(REPO, "BENCHMARKS.md"));
  for (const name of names) {
    context.log(`${name}: starting`);
    const body = await (await BENCHES[name]!()).run(context);
    const before = existsSync(out) ? readFileSync(out, "utf8") : PREAMBLE;
    writeFileSync(out, replaceSection(before, name, body));
    context.log(`${name}: section written to ${out}`);
    process.stdout.write(`${body.trim()}\n\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e: unknown) => {
    process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
