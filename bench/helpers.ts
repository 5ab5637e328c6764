// What the benchmarks share, apart from the harness (run.ts) that lists and
// runs them: the context it gives each one, measuring in a fresh child
// process, describing the machine, and number formats. Benchmarks import this
// file and the helper modules beside it (dump.ts, pages-store.ts,
// throughput.ts), never run.ts or another benchmark, so the harness is the
// only module that imports the benchmarks.

import {spawn} from "node:child_process";
import {cpus, platform, arch, totalmem, release} from "node:os";
import {dirname, resolve} from "node:path";
import {fileURLToPath} from "node:url";

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
