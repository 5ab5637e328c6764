// STSS runner throughput (section `run-stss` of BENCHMARKS.md): `runStss`
// with the real openai client against the local chat-completions server
// answering every request after a fixed 200 ms, at concurrency 1, 8 and 32,
// from a fresh store each time (no cache hits). A conversation asks one
// request at a time (each turn needs the one before), so the ideal is
// concurrency ÷ latency requests per second with that many conversations in
// flight; the ratio shows what prompts, validation and cache writes cost on top.

import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {importFiles} from "../loaders/import/session.js";
import {committedChat} from "../loaders/run/chat.js";
import {createChat} from "../loaders/run/client.js";
import {loadStssTemplates, runStss, stssTasksFromStore, stssUnits} from "../loaders/run/episodes/stss.js";
import type {ChatBody} from "../test/helpers/openai-server.js";
import type {BenchContext} from "./helpers.js";
import {LATENCY_MS, throughputTable, type Measurement} from "./throughput.js";

/** Each conversation: three spoken turns, the partner leaves on the fourth, then the summary. */
const REQUESTS_PER_CONVERSATION = 5;
/** Background characters per task: ⌈8 / 2⌉ = 4 conversations per public-activity task. */
const BACKGROUND = 8;
function answer(b: ChatBody): string {
  const system = b.messages[0]?.content ?? "";
  if (system.includes("You have just finished")) return JSON.stringify({summary: "We talked about the gathering in the park at noon."});
  const turn = Number(/It is turn (\d+) of/.exec(b.messages.filter((m) => m.role === "user").at(-1)?.content ?? "")?.[1]);
  return JSON.stringify(turn >= 4 ? {action_type: "leave", argument: "See you there."} : {action_type: "speak", argument: `Turn ${turn}: come to the gathering at the park at noon.`});
}

function tasksFile(path: string, tasks: number, round: number): void {
  const list = Array.from({length: tasks}, (_, t) => {
    const performer = `Host ${t}`;
    return {
      env_name: `bench_${round}_${t}`, task_type: "Public Activity", performer, goal: `Hold gathering ${t} at the park at 2024-05-01 12:00`,
      task: {target: [], target_num: BACKGROUND / 2, goal: [{keyword: "gathering", start_time: "2024-05-01 12:00", duration_in_minutes: 60, location: "the park", required_character: [performer]}]},
      all_chars: [performer, ...Array.from({length: BACKGROUND}, (_, i) => `Guest ${t}-${i}`)],
    };
  });
  writeFileSync(path, JSON.stringify(list));
}

/** n conversations at concurrency c, from tasks imported into the store first (not timed). */
async function play({store, dir, url, c, units: conversations, round}: Measurement): Promise<{seconds: number; requests: number}> {
  const file = join(dir, "tasks.json");
  tasksFile(file, Math.ceil(conversations / (BACKGROUND / 2)), round);
  await importFiles(store, "stss-tasks", [file]);
  const units = stssUnits(await stssTasksFromStore(store), 1).slice(0, conversations);
  // As `sociometer run` makes it: answers committed before the runner sees them, the slot free during the commit.
  const client = createChat({store, baseURL: url, apiKey: "sk-bench", concurrency: c, runId: "bench", deferSave: true});
  const started = performance.now();
  const result = await runStss(committedChat(client.chat), units, {runId: `bench-${round}`, models: ["bench-tested", "bench-partner"], architecture: "GA", maxTurns: 20, maxAttempts: 3,
    concurrency: c, templates: loadStssTemplates()});
  const seconds = (performance.now() - started) / 1000;
  const expected = conversations * REQUESTS_PER_CONVERSATION;
  if (result.records.length !== conversations || client.stats.requests !== expected) {
    throw new Error(`expected ${conversations} conversations by ${expected} requests, got ${result.records.length} by ${client.stats.requests}`);
  }
  return {seconds, requests: expected};
}

export async function run(context: BenchContext): Promise<string> {
  // At least two full waves of conversations at each concurrency.
  const table = await throughputTable(context, {name: "run-stss", unit: "conversations", answer, play, unitsAt: (c) => Math.max(4, c * 2)});
  return [
    "## STSS runner throughput",
    "",
    `\`runStss\` (\`sociometer run stss\`, architecture GA) with the real \`openai\` client against the local chat-completions server (test/helpers/openai-server.ts) answering after a fixed ${LATENCY_MS} ms; ` +
      `each conversation is three spoken turns, a leave and the partner's summary (${REQUESTS_PER_CONVERSATION} requests, one after another). ` +
      "Each measurement starts from a fresh store (nothing cached) and includes building every prompt, validating every answer and caching every call; " +
      "writing and importing the log (once per run) is not in it. Ideal = concurrency ÷ latency (that many conversations waiting on one request each). " +
      `Median of ${context.repeat} run(s).`,
    "",
    ...table,
  ].join("\n");
}
