// Runner throughput of `sociometer run informativebench` (section
// `run-informativebench` of BENCHMARKS.md): runInformativeBench with the real
// openai client against the local chat-completions server answering every
// request after a fixed 200 ms with a model that follows the protocol
// (test/helpers/informativebench-model.ts), at concurrency 1, 8 and 32
// (questions and requests in flight), from a fresh store each time (no cache
// hits). The ideal is concurrency ÷ latency requests per second: the client
// never idle. A question's steps wait on each other (a plan update needs the
// message before it), so the pool keeps `concurrency` questions going.

import {mkdirSync, rmSync} from "node:fs";
import {loadavg} from "node:os";
import {join} from "node:path";
import {openStore} from "../loaders/store/db.js";
import {createChat} from "../loaders/run/client.js";
import {loadIbTemplates, runInformativeBench} from "../loaders/run/episodes/informativebench.js";
import type {IbQuestion} from "../loaders/run/episodes/informativebench-questions.js";
import {protocol} from "../test/helpers/informativebench-model.js";
import {startOpenAIServer} from "../test/helpers/openai-server.js";
import {machine, rate, type BenchContext} from "./run.js";

const LATENCY_MS = 200;
const CONCURRENCIES = [1, 8, 32];
/** The scripted model ends the conversation on message 2: 2 plans, 2 messages, 4 plan updates, the consensus, the answer. */
const REQUESTS_PER_QUESTION = 10;
/**
 * Questions per measurement: four per slot (40, 320 and 1,280 requests), so that the last questions, which run
 * with fewer than `concurrency` in flight while their steps wait on each other, are a small part of the time.
 */
const questionsAt = (c: number) => c * 4;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const question = (i: number, round: number): IbQuestion => ({
  dataset: "NP", metric: null, questionId: `q${i}`, question: `Which city do Dana and Eli both like? (bench question ${i}, round ${round})`, gold: ["Oslo"],
  sides: [{people: "Dana", information: "Dana likes Oslo and Rome."}, {people: "Eli", information: "Eli likes Oslo and Lima."}], synthetic: true,
});

/** One measurement: n questions at concurrency c in a fresh store; returns seconds. */
async function once(dir: string, url: string, c: number, n: number, round: number): Promise<number> {
  const base = join(dir, `run-ib-c${c}-r${round}`);
  rmSync(base, {recursive: true, force: true});
  mkdirSync(base, {recursive: true});
  const store = await openStore(join(base, "store.duckdb"));
  try {
    const client = createChat({store, baseURL: url, apiKey: "sk-bench", concurrency: c, runId: "run:bench", deferSave: true});
    const questions = Array.from({length: n}, (_, i) => question(i, round));
    const started = performance.now();
    const result = await runInformativeBench(client.chat, questions, {
      runId: "bench", models: ["bench-model", "bench-model"], maxTurns: 10, maxAttempts: 3, temperature: 0.2, infonav: true, templates: loadIbTemplates(), concurrency: c,
    });
    const seconds = (performance.now() - started) / 1000;
    const requests = n * REQUESTS_PER_QUESTION;
    if (result.records.length !== n || result.records.some((r) => r.failure) || client.stats.requests !== requests) {
      throw new Error(`expected ${n} questions answered by ${requests} requests, got ${result.records.length} (${result.failures.length} endpoint failures) by ${client.stats.requests}`);
    }
    return seconds;
  } finally {
    store.close();
    rmSync(base, {recursive: true, force: true});
  }
}

export async function run(context: BenchContext): Promise<string> {
  const loadBefore = loadavg()[0]!;
  const server = await startOpenAIServer((body) => ({kind: "answer", content: protocol(body.messages), delayMs: LATENCY_MS}));
  const rowsOut: string[] = [];
  try {
    for (const c of CONCURRENCIES) {
      const n = questionsAt(c);
      const requests = n * REQUESTS_PER_QUESTION;
      const times: number[] = [];
      for (let r = 0; r < context.repeat; r++) {
        times.push(await once(context.dir, server.url, c, n, r));
        context.log(`run-informativebench: concurrency ${c}, ${n} questions, run ${r + 1}: ${times.at(-1)!.toFixed(2)} s`);
      }
      const seconds = median(times);
      const throughput = requests / seconds;
      const ideal = c / (LATENCY_MS / 1000);
      rowsOut.push(`| ${c} | ${n} | ${requests} | ${seconds.toFixed(2)} s | ${rate(throughput)} | ${rate(ideal)} | ${(throughput / ideal).toFixed(2)} |`);
    }
  } finally {
    await server.close();
  }
  return [
    "## Runner throughput: `run informativebench`",
    "",
    `InfoNav questions played by \`runInformativeBench\` with the real \`openai\` client against the local chat-completions server (test/helpers/openai-server.ts) answering after a fixed ${LATENCY_MS} ms ` +
      `with a scripted model that follows the protocol (${REQUESTS_PER_QUESTION} requests a question: 2 plans, 2 messages, 4 plan updates, the consensus, the answer); ` +
      "each measurement starts from a fresh store (nothing cached) and includes validating every answer and committing every call to the cache before the step that depends on it. " +
      `Concurrency = questions and requests in flight. Ideal = concurrency ÷ latency. Median of ${context.repeat} run(s).`,
    "",
    `Machine: ${machine([`1-minute load average ${loadBefore.toFixed(1)} at the start (a shared machine: other work competes for the cores)`])}.`,
    "",
    "| concurrency | questions | requests | time | requests/s | ideal/s | ratio to ideal |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rowsOut,
  ].join("\n");
}
