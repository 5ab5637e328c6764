// Runs the site's data loaders in this one process, each writing its output
// into Framework's cache, where `observable build` then finds it and starts
// no process of its own. Framework runs loaders one after another, each in a
// fresh `tsx` process that pays 0.6–1 s of start-up (tsx, DuckDB, the query
// modules); here that is paid once. Started by the site config before a build
// (src/data/site-cache.ts runLoadersOnce) with the outputs that are missing.
//
//   tsx src/data/run-loaders.ts ROOT OUTPUT…      (OUTPUT such as data/overview.parquet)
//
// It sits in src/data beside the loaders (Framework treats a file with one
// extension as a module, not a loader), so every copy of the site has it.
//
// Each loader is imported as a module with process.stdout pointing at its
// output file, and with the arguments Framework would pass a parameterised
// loader (`--table=episodes` for data/tables/[table].parquet.ts), so every
// loader file stays a plain script that `observable preview` runs alone. A
// loader that fails leaves no output: Framework runs it again itself and
// reports its error as it would have.

import {createWriteStream, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync} from "node:fs";
import {finished} from "node:stream/promises";
import {dirname, join, resolve} from "node:path";
import {pathToFileURL} from "node:url";
import {loaderOfOutput} from "./site-cache.js";

const [rootArg, ...outputs] = process.argv.slice(2);
if (!rootArg) {
  console.error("usage: tsx src/data/run-loaders.ts ROOT OUTPUT…");
  process.exit(2);
}
const root = resolve(rootArg);
const stdout = Object.getOwnPropertyDescriptor(process, "stdout")!;
const argv = process.argv;

/** Runs the loader of `output` with its stdout in the cache file; false when it failed. */
async function runInto(output: string): Promise<boolean> {
  const found = loaderOfOutput(root, output);
  if (!found) return false;
  const target = join(root, ".observablehq", "cache", output);
  const temp = `${target}.${process.pid}`;
  const file = createWriteStream(temp);
  Object.defineProperty(process, "stdout", {value: file, configurable: true, writable: true});
  process.argv = [argv[0]!, found.loader, ...found.args];
  try {
    // The arguments make the address unique, so a loader with parameters runs once per output.
    await import(`${pathToFileURL(found.loader).href}?${new URLSearchParams(found.args.map((a) => ["arg", a])).toString()}`);
    file.end();
    await finished(file);
    renameSync(temp, target);
    return true;
  } catch (e) {
    // Ended, not destroyed: a write the loader left pending would otherwise fail the whole process.
    file.end();
    await finished(file).catch(() => undefined);
    rmSync(temp, {force: true});
    console.error(`run-loaders: ${output}: ${e instanceof Error ? e.message : String(e)} (the build runs this loader again and reports it)`);
    return false;
  } finally {
    Object.defineProperty(process, "stdout", stdout);
    process.argv = argv;
  }
}

/**
 * Restarts the process's peak-RSS count at its current RSS (Linux: writing 5
 * to /proc/self/clear_refs), so each loader's peak is its own and not the
 * largest of those before it. Elsewhere the count runs on, and says so.
 */
function restartPeakRss(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

/** The process's peak RSS in bytes since the last restart (VmHWM), else since it started. */
function peakRss(): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // not Linux: the whole process's peak below
  }
  return process.resourceUsage().maxRSS * 1024;
}

let failed = 0;
for (const output of outputs) {
  const start = performance.now();
  mkdirSync(dirname(join(root, ".observablehq", "cache", output)), {recursive: true});
  const own = restartPeakRss();
  // The process's CPU (DuckDB's threads included) while this loader ran: with another process beside it, its wall time says little.
  const cpuBefore = process.cpuUsage();
  const ok = await runInto(output);
  if (!ok) failed++;
  const cpu = process.cpuUsage(cpuBefore);
  const peak = `${(peakRss() / 2 ** 30).toFixed(2)} GiB${own ? "" : " (the process's so far)"}`;
  console.error(`run-loaders: ${output} ${ok ? "done" : "left to the build"} in ${((performance.now() - start) / 1000).toFixed(2)} s, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} CPU-s, peak RSS ${peak}`);
}
process.exitCode = failed ? 1 : 0;
