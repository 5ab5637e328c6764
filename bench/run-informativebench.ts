// Runner throughput of `sociometer run informativebench` (section
// `run-informativebench` of BENCHMARKS.md): runInformativeBench with the real
// openai client against the local chat-completions server answering every
// request after a fixed 200 ms with a model that follows the protocol
// (test/helpers/informativebench-model.ts), at concurrency 1, 8 and 32
// (questions and requests in flight), from a fresh store each time (no cache
// hits). The ideal is concurrency ÷ latency requests per second: the client
// never idle. A question's steps wait on each other (a plan update needs the
// message before it), so the pool keeps `concurrency` questions going.

import {createChat} from "../loaders/run/client.js";
import {loadIbTemplates, runInformativeBench} from "../loaders/run/episodes/informativebench.js";
import type {IbQuestion} from "../loaders/run/episodes/informativebench-questions.js";
import {protocol} from "../test/helpers/informativebench-model.js";
import type {BenchContext} from "./helpers.js";
import {LATENCY_MS, throughputTable, type Measurement} from "./throughput.js";

/** The scripted model ends the conversation on message 2: 2 plans, 2 messages, 4 plan updates, the consensus, the answer. */
const REQUESTS_PER_QUESTION = 10;

const question = (i: number, round: number): IbQuestion => ({
  dataset: "NP", metric: null, questionId: `q${i}`, question: `Which city do Dana and Eli both like? (bench question ${i}, round ${round})`, gold: ["Oslo"],
  sides: [{people: "Dana", information: "Dana likes Oslo and Rome."}, {people: "Eli", information: "Eli likes Oslo and Lima."}], synthetic: true,
});

/** n questions at concurrency c. */
async function play({store, url, c, units: n, round}: Measurement): Promise<{seconds: number; requests: number}> {
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
  return {seconds, requests};
}

export async function run(context: BenchContext): Promise<string> {
  const table = await throughputTable(context, {
    name: "run-informativebench", unit: "questions", play,
    answer: (body) => protocol(body.messages),
    // Four per slot (40, 320 and 1,280 requests), so that the last questions, which run with fewer than
    // `concurrency` in flight while their steps wait on each other, are a small part of the time.
    unitsAt: (c) => c * 4,
  });
  return [
    "## Runner throughput: `run informativebench`",
    "",
    `InfoNav questions played by \`runInformativeBench\` with the real \`openai\` client against the local chat-completions server (test/helpers/openai-server.ts) answering after a fixed ${LATENCY_MS} ms ` +
      `with a scripted model that follows the protocol (${REQUESTS_PER_QUESTION} requests a question: 2 plans, 2 messages, 4 plan updates, the consensus, the answer); ` +
      "each measurement starts from a fresh store (nothing cached) and includes validating every answer and committing every call to the cache before the step that depends on it. " +
      `Concurrency = questions and requests in flight. Ideal = concurrency ÷ latency. Median of ${context.repeat} run(s).`,
    "",
    ...table,
  ].join("\n");
}
