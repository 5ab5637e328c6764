// `sociometer judge … --batch` and `sociometer judge --collect RUN`: the
// judge's requests through the OpenAI Batch API, and their answers collected
// later (loaders/run/judges/batch.ts).

import {resolve} from "node:path";
import {createChat, type ChatClient} from "../run/client.js";
import {redact} from "../run/redact.js";
import {collectJudgeBatches, submitJudgeBatch, BATCH_PRICE_FACTOR, type SubmitOptions} from "../run/judges/batch.js";
import {checkRunId, type JudgeKind} from "../run/judges/engine.js";
import {DEFAULT_PRICES_PATH, loadPrices} from "../run/prices.js";
import {defaultStorePath, type Store} from "../store/db.js";
import {noStoreToJudge, withCommandStore} from "./command-store.js";

type Secrets = readonly (string | undefined)[];

/** Submits the run's open cases as batches; exit code 0. */
export async function submitCommand(store: Store, kind: JudgeKind, client: ChatClient, o: Omit<SubmitOptions, "api">, secrets: Secrets): Promise<number> {
  const r = await submitJudgeBatch(store, kind, {...o, api: client.batches});
  const lines = [
    `run ${r.runId}: ${kind.name} by ${o.model} (template ${r.template.name}, version ${r.template.version}), through the Batch API of ${client.endpoint}`,
    r.batches.length
      ? `  ${r.cases} case(s) submitted in ${r.batches.map((b) => `batch ${b.id} (${b.requests} request(s), ${b.status})`).join(", ")}`
      : "  nothing to submit",
    ...(r.ok || r.failed ? [`  ${r.ok} judged and ${r.failed} failed from answers already in the cache`] : []),
    `  ${r.alreadyDone} of ${r.items} already done or waiting before`,
    ...r.notes.map((n) => `  ${n}`),
    ...(r.batches.length ? [`  collect the answers (within 24 h) with: sociometer judge --collect ${r.runId}`] : []),
  ];
  process.stdout.write(redact(lines.join("\n") + "\n", secrets));
  return 0;
}

export interface CollectFlags {
  collect?: string;
  db?: string;
  "base-url"?: string;
  prices?: string;
  wait?: boolean;
  poll?: string;
  timeout?: string;
  quiet?: boolean;
}

/** Collects a run's batches; exit code 0 when nothing is pending or left unanswered, 3 otherwise (run it again). */
export async function collectCommand(values: CollectFlags, secrets: Secrets): Promise<number> {
  const runId = checkRunId(values.collect ?? "");
  const poll = values.poll === undefined ? 30 : Number(values.poll);
  if (!(poll > 0)) throw new Error(`--poll must be a number of seconds > 0, not ${values.poll}`);
  const timeout = values.timeout === undefined ? 120 : Number(values.timeout);
  if (!(timeout > 0)) throw new Error(`--timeout must be a number of seconds > 0, not ${values.timeout}`);
  const prices = loadPrices(values.prices ?? DEFAULT_PRICES_PATH);
  const say = (text: string) => process.stderr.write(redact(text, secrets));
  const dbPath = values.db ? resolve(values.db) : defaultStorePath();
  return await withCommandStore(dbPath, {missing: noStoreToJudge(dbPath)}, async (store) => {
    const client = createChat({store, baseURL: values["base-url"], timeoutMs: timeout * 1000, prices, runId});
    const r = await collectJudgeBatches(store, runId, {
      api: client.batches, prices, wait: values.wait, pollMs: poll * 1000,
      onStatus: values.quiet ? undefined : (b) => say(`batch ${b.id}: ${b.status}${b.counts && b.counts.total ? ` (${b.counts.completed + b.counts.failed} of ${b.counts.total} done)` : ""}\n`),
    });
    const cost = r.requests === 0 ? "$0.00" : r.cost === null ? `unknown (no price for ${r.model} in the price table)` : `$${r.cost.toFixed(4)} (batch price, ${BATCH_PRICE_FACTOR} × the table's)`;
    const lines = [
      `run ${r.runId}: ${r.kind} by ${r.model}, batches collected from ${client.endpoint}`,
      ...r.collected.map((c) => `  batch ${c.id}: ${c.status}, ${c.answered} answered, ${c.unanswered} without an answer`),
      `  ${r.ok} judged, ${r.failed} failed (raw answers kept in table judgments)`,
      `  tokens: ${r.promptTokens} prompt + ${r.completionTokens} completion in ${r.requests} answer(s); estimated cost ${cost}`,
      ...(r.repairBatches.length ? [`  invalid answers sent back for repair in ${r.repairBatches.join(", ")}`] : []),
      ...r.notes.map((n) => `  ${n}`),
    ];
    if (r.unfinished.length) {
      lines.push(`  ${r.unfinished.length} case(s) got no answer (${r.unfinished[0].error}); they are no longer pending:`,
        `  judge them again (with or without --batch) under run id ${r.runId} to ask them anew`);
    }
    if (r.pending.length) {
      lines.push(`  ${r.pending.length} batch(es) still pending: ${r.pending.map((b) => `${b.id} (${b.status})`).join(", ")}; run sociometer judge --collect ${r.runId} again later`);
    }
    process.stdout.write(redact(lines.join("\n") + "\n", secrets));
    return r.unfinished.length || r.pending.length ? 3 : 0;
  });
}
