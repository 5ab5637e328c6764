// STSS runner throughput (section `run-stss` of BENCHMARKS.md): `runStss`
// with the real openai client against the local chat-completions server
// answering every request after a fixed 200 ms, at concurrency 1, 8 and 32,
// from a fresh store each time (no cache hits). A conversation asks one
// request at a time (each turn needs the one before), so the ideal is
// concurrency ÷ latency requests per second with that many conversations in
// flight; the ratio shows what prompts, validation and cache writes cost on top.

import {mkdirSync, rmSync, writeFileSync} from "node:fs";
import {loadavg} from "node:os";
import {join} from "node:path";
import {importFiles} from "../loaders/import/session.js";
import {openStore} from "../loaders/store/db.js";
import {createChat} from "../loaders/run/client.js";
import {loadStssTemplates, runStss, stssTasksFromStore, stssUnits} from "../loaders/run/episodes/stss.js";
import {startOpenAIServer, type ChatBody} from "../test/helpers/openai-server.js";
import {machine, rate, type BenchContext} from "./run.js";

const LATENCY_MS = 200;
const CONCURRENCIES = [1, 8, 32];
/** Each conversation: three spoken turns, the partner leaves on the fourth, then the summary. */
const REQUESTS_PER_CONVERSATION = 5;
/** Background characters per task: ⌈8 / 2⌉ = 4 conversations per public-activity task. */
const BACKGROUND = 8;
/** Conversations per measurement: at least two full waves at each concurrency. */
const conversationsAt = (c: number) => Math.max(4, c * 2);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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

/** One measurement: a fresh store with the tasks, played at concurrency c; returns seconds and requests. */
async function once(dir: string, url: string, c: number, conversations: number, round: number): Promise<{seconds: number; requests: number}> {
  const base = join(dir, `run-stss-c${c}-r${round}`);
  rmSync(base, {recursive: true, force: true});
  mkdirSync(base, {recursive: true});
  const store = await openStore(join(base, "store.duckdb"));
  try {
    const file = join(base, "tasks.json");
    tasksFile(file, Math.ceil(conversations / (BACKGROUND / 2)), round);
    await importFiles(store, "stss-tasks", [file]);
    const units = stssUnits(await stssTasksFromStore(store), 1).slice(0, conversations);
    const client = createChat({store, baseURL: url, apiKey: "sk-bench", concurrency: c, runId: "bench"});
    const started = performance.now();
    const result = await runStss(client.chat, units, {runId: `bench-${round}`, models: ["bench-tested", "bench-partner"], architecture: "GA", maxTurns: 20, maxAttempts: 3,
      concurrency: c, templates: loadStssTemplates()});
    const seconds = (performance.now() - started) / 1000;
    const expected = conversations * REQUESTS_PER_CONVERSATION;
    if (result.records.length !== conversations || client.stats.requests !== expected) {
      throw new Error(`expected ${conversations} conversations by ${expected} requests, got ${result.records.length} by ${client.stats.requests}`);
    }
    return {seconds, requests: expected};
  } finally {
    store.close();
    rmSync(base, {recursive: true, force: true});
  }
}

export async function run(context: BenchContext): Promise<string> {
  const loadBefore = loadavg()[0];
  const server = await startOpenAIServer((b) => ({kind: "answer", content: answer(b), delayMs: LATENCY_MS}));
  const rowsOut: string[] = [];
  try {
    for (const c of CONCURRENCIES) {
      const n = conversationsAt(c);
      const times: number[] = [];
      let requests = 0;
      for (let r = 0; r < context.repeat; r++) {
        const m = await once(context.dir, server.url, c, n, r);
        times.push(m.seconds);
        requests = m.requests;
        context.log(`run-stss: concurrency ${c}, ${n} conversations, ${requests} requests, run ${r + 1}: ${m.seconds.toFixed(2)} s`);
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
    "## STSS runner throughput",
    "",
    `\`runStss\` (\`sociometer run stss\`, architecture GA) with the real \`openai\` client against the local chat-completions server (test/helpers/openai-server.ts) answering after a fixed ${LATENCY_MS} ms; ` +
      `each conversation is three spoken turns, a leave and the partner's summary (${REQUESTS_PER_CONVERSATION} requests, one after another). ` +
      "Each measurement starts from a fresh store (nothing cached) and includes building every prompt, validating every answer and caching every call; " +
      "writing and importing the log (once per run) is not in it. Ideal = concurrency ÷ latency (that many conversations waiting on one request each). " +
      `Median of ${context.repeat} run(s).`,
    "",
    `Machine: ${machine([`1-minute load average ${loadBefore.toFixed(1)} at the start (a shared machine: other work competes for the cores)`])}.`,
    "",
    "| concurrency | conversations | requests | time | requests/s | ideal/s | ratio to ideal |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rowsOut,
  ].join("\n");
}
