// Runs the site's data loaders in this one process, each writing its output
// into Framework's cache, where `observable build` then finds it and starts
// no process of its own. Framework runs loaders one after another, each in a
// fresh `tsx` process that pays 0.6–1 s of start-up (tsx, DuckDB, the query
// modules); here that is paid once. Started by the site config before a build
// (src/data/site-cache.ts runLoadersOnce) with the outputs that are missing.
//
//   tsx src/data/run-loaders.ts ROOT OUTPUT…      (OUTPUT such as data/overview.parquet)
//   tsx src/data/run-loaders.ts ROOT --queue=N    (started by the build: asks it for outputs)
//
// In queue mode (process N of the build's) it asks the build for the next
// group of outputs over Node's IPC channel until the build has none left, so
// two processes drain one queue and neither idles while the other still has
// a long list, and it reports each loader's CPU seconds back.
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
import {once} from "node:events";
import {loaderOfOutput, type LoaderMessage} from "./site-cache.js";

const [rootArg, ...named] = process.argv.slice(2);
const lane = /^--queue=(\d+)$/.exec(named[0] ?? "")?.[1];
if (!rootArg || (lane && (named.length > 1 || !process.send))) {
  console.error("usage: tsx src/data/run-loaders.ts ROOT OUTPUT…  (or ROOT --queue=N, started by the build with an IPC channel)");
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

/** Tells the build (queue mode only). */
function tell(message: LoaderMessage): void {
  // A build that has gone away cannot be told; sending would throw ERR_IPC_CHANNEL_CLOSED.
  if (process.connected) process.send?.(message);
}

/** The outputs named on the command line, or in queue mode each group the build hands out until it has none. */
async function* outputsToRun(): AsyncGenerator<string> {
  if (!lane) {
    yield* named;
    return;
  }
  for (;;) {
    // A build that went away hands out nothing more. The listener that did not fire is removed (abort), not left to pile up.
    const answered = new AbortController();
    const reply = Promise.race([
      once(process, "message", {signal: answered.signal}),
      once(process, "disconnect", {signal: answered.signal}).then(() => [{outputs: []}]),
    ]);
    tell({next: true});
    const [{outputs}] = (await reply) as [{outputs: string[]}];
    answered.abort();
    if (outputs.length === 0) break;
    yield* outputs;
  }
  if (process.connected) process.disconnect?.();
}

let failed = 0;
let ran = 0;
const started = performance.now();
const cpuAtStart = process.cpuUsage();
for await (const output of outputsToRun()) {
  const start = performance.now();
  mkdirSync(dirname(join(root, ".observablehq", "cache", output)), {recursive: true});
  const own = restartPeakRss();
  // The process's CPU (DuckDB's threads included) while this loader ran: with another process beside it, its wall time says little.
  const cpuBefore = process.cpuUsage();
  const ok = await runInto(output);
  if (!ok) failed++;
  ran++;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  tell({output, ok, cpuSeconds});
  const peak = `${(peakRss() / 2 ** 30).toFixed(2)} GiB${own ? "" : " (the process's so far)"}`;
  console.error(`run-loaders: ${output} ${ok ? "done" : "left to the build"} in ${((performance.now() - start) / 1000).toFixed(2)} s, ${cpuSeconds.toFixed(2)} CPU-s, peak RSS ${peak}${lane ? `, process ${lane}` : ""}`);
}
if (lane) {
  const cpu = process.cpuUsage(cpuAtStart);
  console.error(`run-loaders: process ${lane} ran ${ran} loaders in ${((performance.now() - started) / 1000).toFixed(2)} s, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} CPU-s`);
}
process.exitCode = failed ? 1 : 0;
