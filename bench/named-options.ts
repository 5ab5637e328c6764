// `npm run bench -- named-options`: what the two named readings cost, on the
// bundled samples (HSII and InformativeBench have no synthetic generator at
// scale). **Compare's HSII packs**: each of compare-rows-hsii.bin (mean, the
// baseline: the loader every build ran before), compare-rows-hsii-strict.bin
// and compare-rows-hsii-first.bin run alone as Framework runs a loader (a
// fresh `node --import tsx` process), wall seconds and bytes written.
// **ScheduleMedium free text**: scoreRows over the samples' InformativeBench
// records (each pass ×50) under `items` (the baseline, the default) and
// `commentary`. The ways alternate, so the machine's load falls on each alike.
//
//   npm run bench -- named-options [--repeat 5]

import {spawn} from "node:child_process";
import {mkdirSync, rmSync} from "node:fs";
import {loadavg} from "node:os";
import {resolve} from "node:path";
import {fileURLToPath} from "node:url";
import {importSamples} from "../loaders/samples.js";
import {IB_RESULTS_SQL, IB_SCHEDULES_SQL} from "../loaders/queries/informativebench.js";
import {openStore, rows} from "../loaders/store/db.js";
import {schedulesFromRows, scoreRows, type FreeText, type IbResultRow, type ScheduleRow} from "../src/lib/informativebench.js";
import {machine, type BenchContext} from "./helpers.js";

const REPO = resolve(fileURLToPath(import.meta.url), "../..");
const LOADERS = ["compare-rows-hsii", "compare-rows-hsii-strict", "compare-rows-hsii-first"] as const;
const READINGS: readonly FreeText[] = ["items", "commentary"];
/** Scoring passes per measurement: one pass over the samples takes a few milliseconds. */
const PASSES = 50;

/** Runs one loader alone on `store`; its wall seconds and the bytes it wrote. */
function timeLoader(loader: string, store: string): Promise<{seconds: number; bytes: number}> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", `src/data/${loader}.bin.ts`], {cwd: REPO, env: {...process.env, SOCIOMETER_DB: store}, stdio: ["ignore", "pipe", "pipe"]});
    let bytes = 0;
    let err = "";
    child.stdout.on("data", (d: Buffer) => (bytes += d.length));
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.on("error", fail);
    child.on("close", (code) => (code === 0 ? done({seconds: (performance.now() - started) / 1000, bytes}) : fail(new Error(`${loader} exited with ${code}: ${err}`))));
  });
}

const median = (xs: readonly number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rotate = <T>(xs: readonly T[], by: number): T[] => xs.map((_, i) => xs[(i + by) % xs.length]!);

export async function run(context: BenchContext): Promise<string> {
  mkdirSync(context.dir, {recursive: true});
  const path = resolve(context.dir, "named-options-samples.duckdb");
  const loads: number[] = [];
  const store = await openStore(path);
  let records: IbResultRow[];
  let schedules: ReturnType<typeof schedulesFromRows>;
  try {
    await importSamples(store);
    records = await rows<IbResultRow>(store.conn, IB_RESULTS_SQL);
    schedules = schedulesFromRows(await rows<ScheduleRow>(store.conn, IB_SCHEDULES_SQL));
  } finally {
    store.close();
  }

  const loaderTimes = new Map<string, number[]>(LOADERS.map((l) => [l, []]));
  const bytes = new Map<string, number>();
  const scoring = new Map<FreeText, number[]>(READINGS.map((r) => [r, []]));
  const medium = new Map<FreeText, number>();
  for (let r = 0; r < context.repeat; r++) {
    for (const loader of rotate(LOADERS, r)) {
      loads.push(loadavg()[0]);
      const t = await timeLoader(loader, path);
      loaderTimes.get(loader)!.push(t.seconds);
      bytes.set(loader, t.bytes);
      context.log(`named-options: ${loader} ${t.seconds.toFixed(2)} s, ${t.bytes} bytes (load ${loads.at(-1)!.toFixed(1)})`);
    }
    for (const reading of rotate(READINGS, r)) {
      loads.push(loadavg()[0]);
      const started = performance.now();
      let sum = 0;
      for (let p = 0; p < PASSES; p++) for (const s of scoreRows(records, {freeText: reading, schedules})) if (s.dataset === "ScheduleMedium") sum += s.score;
      scoring.get(reading)!.push(performance.now() - started);
      medium.set(reading, sum / PASSES);
    }
  }

  if (!context.keep) rmSync(path, {force: true});
  const base = median(loaderTimes.get("compare-rows-hsii")!);
  const scoreBase = median(scoring.get("items")!);
  const mediumRecords = records.filter((r) => r.dataset === "ScheduleMedium").length;
  return [
    `## Named readings: HSII win policy on Compare, ScheduleMedium free text (issue 18 house standard, branch opts, ${new Date().toISOString().slice(0, 10)}, ` +
      `load ${loads.reduce((a, b) => Math.min(a, b), Infinity).toFixed(1)}–${loads.reduce((a, b) => Math.max(a, b), 0).toFixed(1)})`,
    "",
    `${machine([`1-minute load average ${loads.reduce((a, b) => Math.min(a, b), Infinity).toFixed(1)}–${loads.reduce((a, b) => Math.max(a, b), 0).toFixed(1)} during the runs`])}; ` +
      `the bundled samples; median of ${context.repeat} runs of each way, alternating; (×) is the ratio to the baseline of the same run.`,
    "",
    "Compare's HSII packs, each loader run alone in a fresh process as Framework runs it (start-up included; in a build the compare loaders share one process):",
    "",
    "| loader | wall (s) | ratio | bytes | every run (s) |",
    "| --- | ---: | ---: | ---: | --- |",
    ...LOADERS.map((l) => `| ${l}.bin${l === "compare-rows-hsii" ? " (mean, baseline)" : ""} | ${median(loaderTimes.get(l)!).toFixed(2)} | ${(median(loaderTimes.get(l)!) / base).toFixed(2)}× | ` +
      `${bytes.get(l)!.toLocaleString("en-US")} | ${loaderTimes.get(l)!.map((s) => s.toFixed(2)).join(", ")} |`),
    "",
    `ScheduleMedium free text: scoreRows over the samples' ${records.length.toLocaleString("en-US")} InformativeBench records (${mediumRecords} ScheduleMedium), ${PASSES} passes per run:`,
    "",
    "| reading | time (ms) | ratio | ScheduleMedium F1 summed over its records | every run (ms) |",
    "| --- | ---: | ---: | ---: | --- |",
    ...READINGS.map((r) => `| ${r}${r === "items" ? " (default, baseline)" : ""} | ${median(scoring.get(r)!).toFixed(0)} | ${(median(scoring.get(r)!) / scoreBase).toFixed(2)}× | ` +
      `${medium.get(r)!.toFixed(3)} | ${scoring.get(r)!.map((s) => s.toFixed(0)).join(", ")} |`),
  ].join("\n");
}
