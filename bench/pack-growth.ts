// How each page's first-view pack grows with the episodes of its own
// benchmark: stores of the samples plus k−1 copies of the LIFELONG-SOTOPIA,
// HSII, STSS and InformativeBench sample logs (scripts/samples/replicate.ts;
// same models, tasks and questions, k times the episodes), each pack loader
// run alone against each store as Framework runs it, and the bytes it wrote.
// BENCH_PACK_STORES names a folder that keeps the stores between runs.
//
//   tsx bench/run.ts pack-growth [--sizes 1,10,100]

import {spawnSync} from "node:child_process";
import {copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync} from "node:fs";
import {loadavg} from "node:os";
import {join, resolve} from "node:path";
import {makeReplicatedStore} from "../scripts/samples/replicate.js";
import {REPO, type BenchContext} from "./helpers.js";

/** The packs whose size is in question, and the benchmark each draws. */
export const PACKS = ["lifelong-first-view.bin", "hsii-first-view.bin", "stss-first-view.bin", "informativebench-first-view.bin", "sotopia-first-view.bin", "overview-first-view.bin"];


/** Runs one loader as Framework does (its own process, stdout to a file); bytes, seconds and the child's peak RSS. */
export function runPackLoader(store: string, pack: string, out: string): {bytes: number; seconds: number; cpuSeconds: number; peakRssMb: number} {
  const started = performance.now();
  const child = spawnSync("/usr/bin/time", ["-f", "%M %U %S", resolve(REPO, "node_modules/.bin/tsx"), resolve(REPO, "src/data", `${pack}.ts`)],
    {cwd: REPO, env: {...process.env, SOCIOMETER_DB: store}, maxBuffer: 1 << 30, encoding: "buffer"});
  const seconds = (performance.now() - started) / 1000;
  const stderr = child.stderr.toString();
  if (child.status !== 0) throw new Error(`${pack}: exit ${child.status}: ${stderr.slice(-2000)}`);
  writeFileSync(out, child.stdout);
  const [rssKb = "0", user = "0", sys = "0"] = stderr.trim().split("\n").at(-1)!.split(" ");
  return {bytes: child.stdout.length, seconds, cpuSeconds: Number(user) + Number(sys), peakRssMb: Number(rssKb) / 1024};
}

export async function run(context: BenchContext): Promise<string> {
  const factors = context.sizes.length ? context.sizes : [1, 10, 100];
  const cache = process.env.BENCH_PACK_STORES ? resolve(process.env.BENCH_PACK_STORES) : null;
  const rows: string[] = [];
  const loadStart = loadavg()[0]!;
  for (const k of factors) {
    const store = join(context.dir, `pack-growth-${k}.duckdb`);
    const cached = cache ? join(cache, `pack-growth-${k}.duckdb`) : null;
    if (cached && existsSync(cached)) copyFileSync(cached, store);
    else {
      const started = performance.now();
      await makeReplicatedStore(store, context.dir, k - 1);
      context.log(`pack-growth: store ×${k} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      if (cached) {
        mkdirSync(cache!, {recursive: true});
        copyFileSync(store, cached);
      }
    }
    for (const pack of PACKS) {
      const m = runPackLoader(store, pack, join(context.dir, `${pack}-${k}`));
      context.log(`pack-growth: ×${k} ${pack} ${m.bytes} bytes, ${m.seconds.toFixed(1)} s, ${m.cpuSeconds.toFixed(1)} CPU-s, ${m.peakRssMb.toFixed(0)} MB RSS (load ${loadavg()[0]!.toFixed(1)})`);
      rows.push(`| ×${k} | ${pack} | ${m.bytes.toLocaleString("en-US")} | ${m.seconds.toFixed(1)} | ${m.cpuSeconds.toFixed(1)} | ${m.peakRssMb.toFixed(0)} |`);
    }
    if (!context.keep) rmSync(store, {force: true});
  }
  return [
    "## First-view packs against the episodes of their benchmark",
    "",
    "The samples plus k−1 copies of the LIFELONG-SOTOPIA, HSII, STSS and InformativeBench sample logs (same groups, k times",
    "the episodes; `scripts/samples/replicate.ts`), each pack loader run alone on each store as Framework runs it.",
    "",
    "| store | pack | bytes | wall s | CPU s | peak RSS MB |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    `1-minute load average ${loadStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`,
  ].join("\n");
}
