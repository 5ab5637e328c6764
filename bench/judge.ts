// Judge throughput (section `judge` of BENCHMARKS.md): `runJudge` with the
// real openai client against the local chat-completions server answering
// every request after a fixed 200 ms, at concurrency 1, 8 and 32, from a
// fresh store each time (no cache hits). The ideal is concurrency ÷ latency
// requests per second; the ratio shows what the client, the retries' and
// cache's bookkeeping and the store writes cost on top of waiting.

import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {importFiles} from "../loaders/import/session.js";
import {createChat} from "../loaders/run/client.js";
import {runJudge} from "../loaders/run/judges/engine.js";
import {sotopiaEval} from "../loaders/run/judges/sotopia-eval.js";
import {SOTOPIA_DIMENSIONS} from "../src/lib/dimensions.js";
import {dumpRecord, jsonl} from "../test/helpers/episodes.js";
import type {BenchContext} from "./helpers.js";
import {LATENCY_MS, throughputTable, type Measurement} from "./throughput.js";

const ANSWER = JSON.stringify(Object.fromEntries([1, 2].map((a) => [`agent_${a}`,
  Object.fromEntries(SOTOPIA_DIMENSIONS.map((d) => [d.key, {rationale: "as seen in the transcript", score: d.lo}]))])));

/** n episodes imported (not timed), then judged at concurrency c: one request each. */
async function play({store, dir, url, c, units: n, round}: Measurement): Promise<{seconds: number; requests: number}> {
  const file = join(dir, "episodes.jsonl");
  writeFileSync(file, jsonl(Array.from({length: n}, (_, i) => dumpRecord(`e${i}`, {scenario: `Bench scenario ${i} (round ${round})`}))));
  await importFiles(store, "sotopia", [file]);
  const client = createChat({store, baseURL: url, apiKey: "sk-bench", concurrency: c, runId: "bench", deferSave: true});
  const started = performance.now();
  const result = await runJudge(store, sotopiaEval, {model: "bench-judge", chat: client.chat, endpoint: client.endpoint, concurrency: c, runId: "bench"});
  const seconds = (performance.now() - started) / 1000;
  if (result.ok !== n || client.stats.requests !== n) throw new Error(`expected ${n} judged by ${n} requests, got ${result.ok} by ${client.stats.requests}`);
  return {seconds, requests: n};
}

export async function run(context: BenchContext): Promise<string> {
  // Enough episodes for each concurrency to run several full waves.
  const table = await throughputTable(context, {name: "judge", unit: "episodes", answer: () => ANSWER, play, unitsAt: (c) => Math.max(20, c * 8)});
  return [
    "## Judge throughput",
    "",
    `\`sotopia-eval\` judged with the real \`openai\` client against the local chat-completions server (test/helpers/openai-server.ts) answering after a fixed ${LATENCY_MS} ms; ` +
      `each measurement starts from a fresh store (nothing cached) and includes validating every answer and writing its 14 scores, the judgment and the cached call. ` +
      `Ideal = concurrency ÷ latency. Median of ${context.repeat} run(s).`,
    "",
    ...table,
  ].join("\n");
}
