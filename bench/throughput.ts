// The loop the judge and runner throughput benchmarks share: the local
// chat-completions server answering every request after a fixed latency, the
// same work played at concurrency 1, 8 and 32, each measurement from a fresh
// store (so nothing comes from the cache), and the median against the ideal
// of concurrency ÷ latency requests per second. Each benchmark supplies only
// what it plays and how the server answers.

import {mkdirSync, rmSync} from "node:fs";
import {loadavg} from "node:os";
import {join} from "node:path";
import {openStore, type Store} from "../loaders/store/db.js";
import {startOpenAIServer, type ChatBody} from "../test/helpers/openai-server.js";
import {machine, rate, type BenchContext} from "./helpers.js";

export const LATENCY_MS = 200;
const CONCURRENCIES = [1, 8, 32];

export interface ThroughputWork {
  /** Names the benchmark in the progress log and the folders of its stores. */
  name: string;
  /** What one unit of work is, for the table's column ("episodes", "conversations", "questions"). */
  unit: string;
  /** The scripted model's answer to one request. */
  answer: (body: ChatBody) => string;
  /** Units per measurement at concurrency c: enough for several full waves. */
  unitsAt: (c: number) => number;
  /**
   * Plays `units` units at concurrency c against `url` in the fresh `store`
   * (whose folder `dir` is free for input files), timing only the play, and
   * checks that every unit and request happened; `round` keeps runs' ids apart.
   */
  play: (m: Measurement) => Promise<{seconds: number; requests: number}>;
}

export interface Measurement {
  store: Store;
  dir: string;
  url: string;
  c: number;
  units: number;
  round: number;
}

const median = (xs: readonly number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One measurement in a store of its own, removed afterwards. */
async function inFreshStore(dir: string, work: ThroughputWork, url: string, c: number, units: number, round: number): Promise<{seconds: number; requests: number}> {
  const base = join(dir, `${work.name}-c${c}-r${round}`);
  rmSync(base, {recursive: true, force: true});
  mkdirSync(base, {recursive: true});
  const store = await openStore(join(base, "store.duckdb"));
  try {
    return await work.play({store, dir: base, url, c, units, round});
  } finally {
    store.close();
    rmSync(base, {recursive: true, force: true});
  }
}

/** The machine line and the table of requests per second against the ideal, one row per concurrency. */
export async function throughputTable(context: BenchContext, work: ThroughputWork): Promise<string[]> {
  const loadBefore = loadavg()[0]!;
  const server = await startOpenAIServer((body) => ({kind: "answer", content: work.answer(body), delayMs: LATENCY_MS}));
  const rows: string[] = [];
  try {
    for (const c of CONCURRENCIES) {
      const units = work.unitsAt(c);
      const times: number[] = [];
      let requests = 0;
      for (let r = 0; r < context.repeat; r++) {
        const m = await inFreshStore(context.dir, work, server.url, c, units, r);
        times.push(m.seconds);
        requests = m.requests;
        context.log(`${work.name}: concurrency ${c}, ${units} ${work.unit}, ${requests} requests, run ${r + 1}: ${m.seconds.toFixed(2)} s`);
      }
      const seconds = median(times);
      const throughput = requests / seconds;
      const ideal = c / (LATENCY_MS / 1000);
      rows.push(`| ${c} | ${units} | ${requests} | ${seconds.toFixed(2)} s | ${rate(throughput)} | ${rate(ideal)} | ${(throughput / ideal).toFixed(2)} |`);
    }
  } finally {
    await server.close();
  }
  return [
    `Machine: ${machine([`1-minute load average ${loadBefore.toFixed(1)} at the start (a shared machine: other work competes for the cores)`])}.`,
    "",
    `| concurrency | ${work.unit} | requests | time | requests/s | ideal/s | ratio to ideal |`,
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
  ];
}
