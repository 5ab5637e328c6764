// `sociometer run informativebench`: InformativeBench questions played by two
// agents against a model endpoint (loaders/run/episodes/informativebench.ts),
// written as an `informativebench` log and imported, so that `report
// informativebench`, `report informativebench-ablations` and `report infonav`
// show the run. Same machinery as the other runners (loaders/cli/run-shared.ts):
// every request through the cached client, so a rerun resumes.

import {join, resolve} from "node:path";
import {createChat, type ChatClient} from "../run/client.js";
import {firstPrompt, loadIbTemplates, runInformativeBench, templateId} from "../run/episodes/informativebench.js";
import {questionsFromFile, questionsFromStore, type IbQuestion} from "../run/episodes/informativebench-questions.js";
import {stableHash, writeJsonl} from "../run/episodes/support.js";
import type {Store} from "../store/db.js";
import {openCommandStore, type CommandStore} from "./command-store.js";
import {knownDataset} from "../../src/lib/informativebench.js";
import {parseCommandLine} from "./args.js";
import {finishRun, mergeRunLog, printDryRun, runSetting, RUNS_DIR, type RunDeps} from "./run-shared.js";

export const IB_RUN_HELP = `sociometer run informativebench: two agents answer InformativeBench questions together, each seeing only its own people's information (iAgents §2–3)

Usage:
  sociometer run informativebench --model M [--input FILE.jsonl] [--no-infonav] [options]

Questions come from FILE (one a line: {dataset, metric?, question_id, question, gold, people: [{name, information}, {name, information}]}),
else from the Schedule questions in the store (import them with: sociometer import informativebench-schedules FILE), whose gold the
schedule verifier computes. Mixed memory and recursive communication are not run (iAgents §5 turns them off for NP and Schedule).

Options (defaults in brackets):
  --model M            the model of both agents (a second --model sets agent 2's)
  --partner-model M    the model of agent 2 [same as agent 1]
  --no-infonav         the ablation: no plans, no plan updates, no consensus
  --dataset NAME       only this dataset's questions (repeatable) [all]
  --max-turns N        messages, both agents together, before the answer [10]
  --temperature T      sampling temperature [0.2]
  --retries N          re-asks after an unusable answer, before the question is recorded as failed [2]
  --limit N            questions to run [all]
  --concurrency N      questions and requests in flight [4]
  --base-url URL       the endpoint [$OPENAI_BASE_URL, else OpenAI]; the key comes from $OPENAI_API_KEY
  --run-id ID          names the run [a hash of the options, so the same command gives the same run]
  --out FILE           the log [data/runs/informativebench-<run id>.jsonl]
  --no-import          write the log only
  --prices FILE        price table for the cost estimate [config/prices.json]
  --dry-run            print the first prompt and the number of requests; send nothing
  --db FILE            the store, which also caches every request [$SOCIOMETER_DB or data/sociometer.duckdb]
  --quiet              no progress on stderr
`;

function wholeNumber(flag: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${flag} must be a whole number ≥ ${min}, not ${v}`);
  return n;
}

/** Requests of one question at most, first attempts only: two plans, per message one turn and two plan updates, the consensus, the answer. */
export const requestsPerQuestion = (maxTurns: number, infonav: boolean): number => (infonav ? 3 * maxTurns + 4 : maxTurns + 1);

/** Runs `sociometer run informativebench …` (argv after the runner's name); exit code 3 when questions stopped on endpoint errors. */
export async function runInformativeBenchCommand(argv: string[], deps: RunDeps = {}): Promise<number> {
  const out = deps.out ?? ((t: string) => process.stdout.write(t));
  const err = deps.err ?? ((t: string) => process.stderr.write(t));
  const {values} = parseCommandLine({
    args: argv, allowPositionals: false,
    options: {
      model: {type: "string", multiple: true}, "partner-model": {type: "string"}, "no-infonav": {type: "boolean"}, dataset: {type: "string", multiple: true},
      input: {type: "string"}, "max-turns": {type: "string"}, temperature: {type: "string"}, retries: {type: "string"}, limit: {type: "string"},
      concurrency: {type: "string"}, "base-url": {type: "string"}, "run-id": {type: "string"}, out: {type: "string"}, "no-import": {type: "boolean"},
      prices: {type: "string"}, "dry-run": {type: "boolean"}, db: {type: "string"}, quiet: {type: "boolean"}, help: {type: "boolean", short: "h"},
    },
  }, () => "sociometer run informativebench --model M [--input FILE.jsonl] [--no-infonav] [options]   (options: sociometer run informativebench --help)");
  if (values.help) {
    out(IB_RUN_HELP);
    return 0;
  }
  const models = values.model ?? [];
  if (!models.length) throw new Error("--model is required (the model of the agents)");
  if (models.length > 2 || (models.length === 2 && values["partner-model"])) throw new Error("give at most two models: --model for agent 1, and a second --model or --partner-model for agent 2");
  const seats: [string, string] = [models[0]!, values["partner-model"] ?? models[1] ?? models[0]!];
  const maxTurns = wholeNumber("max-turns", values["max-turns"], 1) ?? 10;
  const retries = wholeNumber("retries", values.retries, 0) ?? 2;
  const concurrency = wholeNumber("concurrency", values.concurrency, 1) ?? 4;
  const limit = wholeNumber("limit", values.limit, 1);
  const temperature = values.temperature === undefined ? 0.2 : Number(values.temperature);
  if (!(Number.isFinite(temperature) && temperature >= 0 && temperature <= 2)) throw new Error(`--temperature must be a number from 0 to 2, not ${values.temperature}`);
  const infonav = !values["no-infonav"];
  const wanted = (values.dataset ?? []).map((d) => knownDataset(d)?.name ?? d);
  const templates = loadIbTemplates();
  const {dbPath, prices, progress, endpoint} = runSetting(values);

  // What shapes a request, hence the run id (and the cache sample): not the selection (--input, --dataset, --limit),
  // since a question's requests and episode id do not depend on what else was picked.
  const runId = values["run-id"] ?? stableHash({kind: "informativebench", endpoint, seats, maxTurns, retries, temperature, infonav,
    templates: Object.values(templates).map(templateId)}, 10);
  if (!/^[A-Za-z0-9._-]+$/.test(runId)) throw new Error(`--run-id may hold letters, digits, '.', '_' and '-' only, not ${JSON.stringify(runId)}`);
  const outPath = resolve(values.out ?? join(RUNS_DIR, `informativebench-${runId}.jsonl`));

  let store: Store | null = null;
  // Kept when a failed run wrote to it: its cached answers let the same command resume.
  let opened: CommandStore | null = null;
  let threw = false;
  let client: ChatClient | null = null;
  try {
    if (!values["dry-run"] || !values.input) {
      opened = await openCommandStore(dbPath, {keepOnFailure: true});
      store = opened.store;
    }
    let questions: IbQuestion[] = values.input ? questionsFromFile(resolve(values.input)) : await questionsFromStore(store!);
    if (!questions.length) throw new Error(values.input ? `${values.input}: no questions` : `the store at ${dbPath} holds no Schedule questions; import some (sociometer import informativebench-schedules FILE) or give --input FILE`);
    if (wanted.length) {
      const present = new Set(questions.map((q) => q.dataset));
      const missing = wanted.filter((d) => !present.has(d));
      if (missing.length) throw new Error(`no questions of ${missing.join(", ")}; the input has ${[...present].join(", ")}`);
      questions = questions.filter((q) => wanted.includes(q.dataset));
    }
    questions = questions.slice(0, limit ?? questions.length);
    const perQuestion = requestsPerQuestion(maxTurns, infonav);
    if (values["dry-run"]) {
      printDryRun(out, [[`${questions[0]!.dataset} question ${questions[0]!.questionId}, agent 1, ${infonav ? "InfoNav plan" : "turn 1"}`, firstPrompt(questions[0]!, {infonav, templates, maxTurns})]],
        `${questions.length} question(s), InfoNav ${infonav ? "on" : "off"}: at most ${questions.length * perQuestion} requests (${perQuestion} each: ` +
        `${infonav ? `2 plans, ${maxTurns} message(s) each followed by 2 plan updates, 1 consensus, 1 answer` : `${maxTurns} message(s), 1 answer`}), plus up to ${retries} re-ask(s) per unusable answer`);
      return 0;
    }
    if (!deps.chat) {
      client = createChat({
        store: store!, deferSave: true, baseURL: values["base-url"], concurrency, runId: `run:${runId}`, prices,
        onRetry: ({attempt, delayMs, reason}) => err(`retry ${attempt} in ${(delayMs / 1000).toFixed(1)} s: ${reason}\n`),
      });
    }
    progress.start(`informativebench run ${runId}`, questions.length, "items");
    const result = await runInformativeBench(deps.chat ?? client!.chat, questions, {
      runId, models: seats, maxTurns, maxAttempts: retries + 1, temperature, infonav, templates, concurrency, onDone: (n) => progress.update(n),
    });
    progress.finish();
    const records = mergeRunLog(outPath, "informativebench", runId, result.records);
    writeJsonl(outPath, records);
    const kept = records.length - result.records.length;
    const failed = result.records.filter((r) => r.failure).length;
    out(`run ${runId}: ${result.records.length} record(s) written to ${outPath}${kept ? `, after ${kept} the run wrote there before` : ""}` +
      `${failed ? `; ${failed} question(s) failed (no usable answer after ${retries + 1} attempt(s)), recorded without a prediction` : ""}\n`);
    return await finishRun({client, store: values["no-import"] || !records.length ? null : store!, format: "informativebench", outPath, progress, failures: result.failures}, {out, err});
  } catch (e) {
    threw = true;
    throw e;
  } finally {
    progress.finish();
    await opened?.close({failed: threw});
  }
}
