// `npm run bench`: runs the benchmarks and writes each one's section of
// BENCHMARKS.md (between <!-- bench:NAME --> and <!-- /bench:NAME -->),
// keeping the other sections. Benchmarks measure; tests check.
//
//   tsx bench/run.ts [NAME…] [--sizes 2000,10000] [--repeat 3] [--keep] [--out BENCHMARKS.md]
//
// NAME is one of the benchmarks below (all of them by default). BENCH_SIZES
// sets --sizes from the environment. Each benchmark is a module exporting
// `run(context)`; this file also holds the helpers they share: measuring in a
// fresh child process, describing the machine, and the markdown section.

import {spawn} from "node:child_process";
import {existsSync, readFileSync, writeFileSync} from "node:fs";
import {cpus, platform, arch, totalmem, release} from "node:os";
import {dirname, join, resolve} from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
import {parseArgs} from "node:util";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface BenchContext {
  /** Sizes (episodes, rows, …) to run at, smallest first. Empty: the benchmark's defaults. */
  sizes: number[];
  /** Keep the large generated files under `dir` instead of deleting them. */
  keep: boolean;
  /** Runs per measurement; a benchmark reports the median, so one slow run on a busy machine does not decide. */
  repeat: number;
  /** Scratch folder for generated inputs and databases (gitignored). */
  dir: string;
  log(message: string): void;
}

export interface BenchModule {
  /** Runs the benchmark and returns its BENCHMARKS.md section body (markdown, without the markers). */
  run(context: BenchContext): Promise<string>;
}

/** The benchmarks, by section name. Add one by writing bench/<name>.ts and listing it here. */
const BENCHES: Readonly<Record<string, () => Promise<BenchModule>>> = {
  import: () => import("./import.js"),
  "import-incremental": () => import("./import-incremental.js"),
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

/** What one child process measured. */
export interface Measurement {
  seconds: number;
  /** Peak resident set size of the child process, in bytes (process.resourceUsage().maxRSS). */
  peakRss: number;
  [extra: string]: unknown;
}

/**
 * Runs `script` (a TypeScript module of the repo) in a fresh Node process with
 * `args`, and returns the JSON object it printed on its last stdout line. Its
 * stderr goes to ours, so progress stays visible.
 */
export function measureInChild(script: string, args: readonly string[]): Promise<Measurement> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {cwd: REPO, stdio: ["ignore", "pipe", "inherit"]});
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const last = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0) return reject(new Error(`${script} ${args.join(" ")} exited with ${code}${last ? `: ${last}` : ""}`));
      try {
        resolvePromise(JSON.parse(last) as Measurement);
      } catch {
        reject(new Error(`${script} ${args.join(" ")} printed no result line (got ${JSON.stringify(last.slice(0, 200))})`));
      }
    });
  });
}

/** Prints a child's result line: timing and peak RSS (resourceUsage().maxRSS is in KiB). */
export function reportFromChild(seconds: number, extra: Record<string, unknown> = {}): void {
  const m: Measurement = {seconds, peakRss: process.resourceUsage().maxRSS * 1024, ...extra};
  process.stdout.write(`${JSON.stringify(m)}\n`);
}

/** One line describing the machine, for a section's header. */
export function machine(extra: string[] = []): string {
  const cpu = cpus();
  return [
    `${platform()} ${arch()} (${release()})`,
    `${cpu.length} cores${cpu[0] ? ` (${cpu[0].model.trim()})` : ""}`,
    `${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM`,
    `Node ${process.version}`,
    ...extra,
  ].join(", ");
}

export const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 0)} MB`;
export const rate = (x: number): string => (x >= 100 ? Math.round(x).toLocaleString("en-US") : x.toFixed(1));

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
