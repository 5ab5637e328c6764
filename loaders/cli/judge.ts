// `sociometer judge <kind> …`: runs an LLM judge over the store's episodes
// against any OpenAI-compatible endpoint, resumably, and says what it cost.

import {resolve} from "node:path";
import {stderrProgress} from "../progress.js";
import {createChat} from "../run/client.js";
import {cliSecrets, redact} from "../run/redact.js";
import {checkRunId, DEFAULT_REPAIRS, defaultRunId, runJudge} from "../run/judges/engine.js";
import {getJudge, JUDGES} from "../run/judges/index.js";
import {DEFAULT_PRICES_PATH, loadPrices} from "../run/prices.js";
import {DEFAULT_RETRY} from "../run/retry.js";
import {loadTemplate} from "../run/template.js";
import {defaultStorePath} from "../store/db.js";
import {noStoreToJudge, withCommandStore} from "./command-store.js";
import {collectCommand, submitCommand} from "./judge-batch.js";
import {parseCommandLine} from "./args.js";

export const JUDGE_HELP = `Usage:
  sociometer judge <kind> --model NAME [options]
  sociometer judge --collect RUN [--wait] [--poll S] [--base-url URL] [--prices FILE] [--db FILE]
      collects the answers of a run's batches submitted with --batch (see below)
      Judges:${JUDGES.map((j) => `\n        ${j.name.padEnd(16)} ${j.description}`).join("")}
  Options:
    --model NAME        the judge model (the rater of every score it writes)
    --base-url URL      an OpenAI-compatible endpoint (default $OPENAI_BASE_URL, else OpenAI);
                        the key comes from $OPENAI_API_KEY only
    --concurrency N     requests in flight at most (default 4)
    --limit N           judge at most N episodes (HSII: cases)
    --include-failed    also judge episodes a runner recorded as failed (settings.ended = "failed"),
                        as played up to the failure; by default they are skipped and counted
    --dry-run           print the first prompts and how many requests would be made; send nothing
    --template FILE     your own prompt template (default: the shipped one of the judge)
    --run-id ID         name the run; the same id resumes it (default: kind-model-templateversion)
    --repairs N         extra answers asked for after an invalid one (default ${DEFAULT_REPAIRS})
    --max-retries N     retries of a request on 429, 5xx, timeouts, dropped connections (default ${DEFAULT_RETRY.maxRetries})
    --timeout S         seconds per attempt (default 120)
    --prices FILE       price table for the cost estimate (default config/prices.json)
    --batch             submit the requests through the OpenAI Batch API (half price, answers within
                        24 h) instead of asking them now; collect them later with --collect RUN
    --collect RUN       poll RUN's batches; write what finished ones answered, validated as online;
                        invalid answers go out again in a follow-up batch while --repairs allows
    --wait, --poll S    with --collect: poll every S seconds (default 30) until no batch is pending
    --db FILE, --quiet  as for every command
`;

const whole = (flag: string, v: string | undefined, min: number): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${flag} must be a whole number ≥ ${min}, not ${v}`);
  return n;
};

/** Says which models were priced by the entry of their name without the date suffix, which can be wrong for a snapshot. */
export const pricedAsNote = (pricedAs: Record<string, string>): string => {
  const entries = Object.entries(pricedAs);
  return entries.length ? ` (${entries.map(([m, k]) => `${m} priced as ${k}`).join(", ")}: no price for the snapshot in the table)` : "";
};

export async function judgeCommand(argv: string[]): Promise<number> {
  const {values, positionals} = parseCommandLine({
    args: argv,
    allowPositionals: true,
    options: {
      db: {type: "string"}, model: {type: "string"}, "base-url": {type: "string"}, concurrency: {type: "string"}, limit: {type: "string"},
      "dry-run": {type: "boolean"}, "include-failed": {type: "boolean"}, template: {type: "string"}, "run-id": {type: "string"}, repairs: {type: "string"},
      "max-retries": {type: "string"}, timeout: {type: "string"}, prices: {type: "string"}, quiet: {type: "boolean"}, help: {type: "boolean", short: "h"},
      batch: {type: "boolean"}, collect: {type: "string"}, wait: {type: "boolean"}, poll: {type: "string"},
    },
  }, () => "sociometer judge <kind> --model NAME [options]   (options: sociometer judge --help)");
  const secrets = cliSecrets(argv);
  if (values.collect !== undefined && !values.help) return collectCommand(values, secrets);
  const [kindName] = positionals;
  if (values.help || !kindName) {
    process.stdout.write(JUDGE_HELP);
    return values.help ? 0 : 1;
  }
  const kind = getJudge(kindName);
  const model = values.model;
  if (!model) throw new Error("--model NAME is required: the judge model");
  const concurrency = whole("concurrency", values.concurrency, 1) ?? 4;
  const limit = whole("limit", values.limit, 1);
  const repairs = whole("repairs", values.repairs, 0);
  const maxRetries = whole("max-retries", values["max-retries"], 0);
  const timeout = values.timeout === undefined ? 120 : Number(values.timeout);
  if (!(timeout > 0)) throw new Error(`--timeout must be a number of seconds > 0, not ${values.timeout}`);
  const prices = loadPrices(values.prices ?? DEFAULT_PRICES_PATH);
  const dbPath = values.db ? resolve(values.db) : defaultStorePath();
  const say = (text: string) => process.stderr.write(redact(text, secrets));

  const template = loadTemplate(kind.name, kind.placeholders, values.template);
  const runId = checkRunId(values["run-id"] ?? defaultRunId(kind, model, template));

  return await withCommandStore(dbPath, {missing: noStoreToJudge(dbPath)}, async (store) => {
    const client = createChat({
      store, deferSave: true, baseURL: values["base-url"], concurrency, timeoutMs: timeout * 1000, prices, runId,
      retry: maxRetries === undefined ? {} : {maxRetries},
      onRetry: values.quiet ? undefined : ({attempt, delayMs, reason}) => say(`retry ${attempt} in ${(delayMs / 1000).toFixed(1)} s: ${reason}\n`),
    });
    if (values.batch && !values["dry-run"]) {
      return await submitCommand(store, kind, client, {model, template, runId, limit, repairs, includeFailed: values["include-failed"]}, secrets);
    }
    const result = await runJudge(store, kind, {
      model, chat: client.chat, template, runId, limit, concurrency, repairs, includeFailed: values["include-failed"],
      endpoint: client.endpoint, progress: values.quiet ? undefined : stderrProgress(),
      print: values["dry-run"] ? (t) => process.stdout.write(t) : undefined,
    });
    if (values["dry-run"]) {
      process.stdout.write(`dry run: ${result.items - result.alreadyDone} case(s) to judge (${result.alreadyDone} already done in run ${result.runId}); ` +
        `${result.wouldRequest} request(s) to ${client.endpoint} (the rest are cached), more if answers need repair\n`);
      for (const n of result.notes) process.stdout.write(`note: ${n}\n`);
      return 0;
    }
    const s = client.stats;
    const cost = s.requests === 0 ? "$0.00" : s.unpriced ? `unknown for ${s.unpriced} request(s) (no price for ${model} in the price table)${s.cost ? `, $${s.cost.toFixed(4)} for the rest` : ""}` : `$${s.cost.toFixed(4)}`;
    const lines = [
      `run ${result.runId}: ${kind.name} by ${model} (template ${result.template.name}, version ${result.template.version})`,
      `  ${result.ok} judged, ${result.failed} failed (raw answers kept in table judgments), ${result.alreadyDone} already done before, of ${result.items}`,
      `  ${s.requests} request(s) to ${client.endpoint}, ${s.cached} answered from the cache, ${s.retries} retried`,
      `  tokens: ${s.promptTokens} prompt + ${s.completionTokens} completion; estimated cost ${cost}${pricedAsNote(s.pricedAs)}`,
      ...result.notes.map((n) => `  ${n}`),
    ];
    if (result.unfinished.length) {
      lines.push(`  ${result.unfinished.length} case(s) unfinished, their requests failed: ${result.unfinished[0].error}`,
        `  run the same command again (run id ${result.runId}) to resume them`);
    }
    process.stdout.write(redact(lines.join("\n") + "\n", secrets));
    return result.unfinished.length ? 3 : 0;
  });
}
