// Judging through the OpenAI Batch API: `sociometer judge … --batch` uploads
// the requests as a JSONL file and starts a batch; `sociometer judge --collect
// RUN` polls it, downloads the answers and treats each exactly as the online
// path does (loaders/run/judges/engine.ts): validated, written as scores or as
// a failed judgment with the raw text, and kept in the cache under the same
// key, so an online rerun of the same cases asks nothing.
//
// Repairs: an invalid answer is not a dead end in batch mode either. Collecting
// submits a follow-up batch with the same repair message the online path would
// send (so the same cache keys), up to the run's --repairs; the answer after
// the last repair is final. Each round is one more --collect.

import {rows, type Store} from "../../store/db.js";
import type {ChatRequest} from "../chat.js";
import {cachedCall, requestHash, storeCall} from "../cache.js";
import {completionBody, FINAL_BATCH_STATES, type BatchApi, type BatchInfo} from "../client.js";
import {commitSoon} from "../commits.js";
import {costOf, type PriceTable} from "../prices.js";
import {loadTemplate, type Template} from "../template.js";
import {
  casesToJudge, checkAnswer, checkResume, checkRunId, DEFAULT_REPAIRS, defaultRunId, finishRun, judgeRequest, openRun,
  recordJudgment, repairMessage, runOptions, sourceIdOf, type JudgeItem, type JudgeKind, type RunShape, type WriteContext,
} from "./engine.js";
import {getJudge} from "./index.js";

/** The Batch API takes at most 50,000 requests per file; more are split into several batches. */
export const MAX_BATCH_REQUESTS = 50_000;
/** …and input files of at most 200 MB: a file is also cut before it would pass this many bytes (decimal MB, the smaller reading). */
export const MAX_BATCH_BYTES = 200_000_000;

/**
 * Cuts batch input lines into files of at most `maxLines` lines and `maxBytes` bytes (UTF-8, one newline per line),
 * in order. A single line over `maxBytes` cannot be sent at all: an error naming it, never a silent drop.
 */
export function splitBatchLines(lines: readonly string[], maxLines = MAX_BATCH_REQUESTS, maxBytes = MAX_BATCH_BYTES, nameOf: (i: number) => string = (i) => `line ${i + 1}`): number[][] {
  const files: number[][] = [];
  let current: number[] = [], bytes = 0;
  lines.forEach((line, i) => {
    const size = Buffer.byteLength(line, "utf8") + 1;
    if (size > maxBytes) throw new Error(`batch request for ${nameOf(i)} is ${size} bytes, over the Batch API's ${maxBytes}-byte input file limit; judge it online (without --batch)`);
    if (current.length && (current.length >= maxLines || bytes + size > maxBytes)) {
      files.push(current);
      current = [];
      bytes = 0;
    }
    current.push(i);
    bytes += size;
  });
  if (current.length) files.push(current);
  return files;
}
/** OpenAI bills batch requests at half the price of the same online requests; the estimate applies it to the price table. */
export const BATCH_PRICE_FACTOR = 0.5;

/** A case's next request, to be answered by a batch: which answer it asks for (1, or 1 + repairs so far). */
interface Asked<I extends JudgeItem> {
  item: I;
  request: ChatRequest;
  attempt: number;
}

export interface BatchTally {
  ok: number;
  failed: number;
  /** Cases whose request got no answer (the batch failed or expired, or the endpoint refused that line); a later run asks them again. */
  unfinished: {key: string; error: string}[];
  notes: string[];
}

/**
 * Takes a case as far as the cache answers it, exactly as the online loop
 * would: an accepted answer is recorded, an invalid one after the last repair
 * is recorded as failed, an invalid one before it moves on to the repair.
 * Returns the first request the cache cannot answer, or null when the case is settled.
 */
async function advance<I extends JudgeItem, A>(store: Store, kind: JudgeKind<I, A>, w: WriteContext, repairs: number, start: Asked<I>,
  answer: string | null, tally: BatchTally, endpoint: string): Promise<Asked<I> | null> {
  let {request, attempt} = start;
  const fixed = attempt === 1 ? kind.settled?.(start.item) : null;
  if (fixed !== undefined && fixed !== null) {
    await recordJudgment(store, kind, w, start.item, {ok: true, value: fixed}, 0);
    tally.ok++;
    return null;
  }
  let text = answer ?? (await cachedCall(store, requestHash(request, endpoint)))?.text ?? null;
  while (text !== null) {
    const checked = checkAnswer(kind, start.item, text);
    if (checked.ok) {
      await recordJudgment(store, kind, w, start.item, checked, attempt);
      tally.ok++;
      return null;
    }
    if (attempt > repairs) {
      await recordJudgment(store, kind, w, start.item, {ok: false, problem: checked.problem, raw: text}, attempt);
      tally.failed++;
      return null;
    }
    request = {...request, messages: [...request.messages, {role: "assistant", content: text}, repairMessage(checked.problem)]};
    attempt++;
    text = (await cachedCall(store, requestHash(request, endpoint)))?.text ?? null;
  }
  return {item: start.item, request, attempt};
}

/** One line of a batch input file: the request's cache key as custom_id, and the body an online call would send. */
export const batchLine = (hash: string, request: ChatRequest): string =>
  JSON.stringify({custom_id: hash, method: "POST", url: "/v1/chat/completions", body: completionBody(request)});

/** Uploads the requests (each distinct request once) in batches of at most MAX_BATCH_REQUESTS lines and MAX_BATCH_BYTES, and records each batch with its cases as pending. */
async function submit<I extends JudgeItem>(store: Store, api: BatchApi, runId: string, asked: readonly Asked<I>[],
  limits: {lines?: number; bytes?: number} = {}): Promise<{batch: BatchInfo; requests: number}[]> {
  const byHash = new Map<string, Asked<I>[]>();
  for (const a of asked) {
    const hash = requestHash(a.request, api.endpoint);
    const same = byHash.get(hash);
    if (same) same.push(a);
    else byHash.set(hash, [a]);
  }
  const hashes = [...byHash.keys()];
  const lines = hashes.map((h) => batchLine(h, byHash.get(h)![0].request));
  const submitted: {batch: BatchInfo; requests: number}[] = [];
  for (const file of splitBatchLines(lines, limits.lines, limits.bytes, (i) => `case ${byHash.get(hashes[i]!)![0].item.key}`)) {
    const chunk = file.map((i) => hashes[i]!);
    const jsonl = file.map((i) => lines[i]).join("\n") + "\n";
    const fileId = await api.upload(`sociometer-${runId}-${submitted.length + 1}.jsonl`, jsonl);
    const batch = await api.create(fileId, {sociometer_run: runId});
    // Recorded at once: from here on the cases wait for this batch and no other run asks them.
    await commitSoon(store, async () => {
      await store.conn.run(`INSERT INTO judge_batches (batch_id, run_id, input_file_id, status, requests, submitted_at, checked_at) VALUES ($1, $2, $3, $4, $5, now(), now())`,
        [batch.id, runId, fileId, batch.status, chunk.length]);
      const cases = chunk.flatMap((h) => byHash.get(h)!.map((a) => [h, a] as const));
      for (let i = 0; i < cases.length; i += 500) {
        const part = cases.slice(i, i + 500);
        await store.conn.run(`INSERT INTO judge_batch_requests VALUES ${part.map((_, j) => `($1, $${j * 5 + 2}, $${j * 5 + 3}, $${j * 5 + 4}, $${j * 5 + 5}, $${j * 5 + 6})`).join(", ")}`,
          [batch.id, ...part.flatMap(([h, a]) => [a.item.key, a.item.episodeId, h, a.attempt, JSON.stringify(a.request)])]);
      }
    });
    submitted.push({batch, requests: chunk.length});
  }
  return submitted;
}

export interface SubmitOptions {
  model: string;
  api: BatchApi;
  templateFile?: string;
  template?: Template;
  runId?: string;
  limit?: number;
  includeFailed?: boolean;
  repairs?: number;
  temperature?: number;
  /** Per-file caps (default MAX_BATCH_REQUESTS lines, MAX_BATCH_BYTES bytes); smaller ones for tests. */
  fileLimits?: {lines?: number; bytes?: number};
}

export interface SubmitResult extends BatchTally {
  runId: string;
  template: Template;
  items: number;
  alreadyDone: number;
  /** The batches started, with the number of requests in each. */
  batches: {id: string; status: string; requests: number}[];
  /** Cases sent in them. */
  cases: number;
}

/** `sociometer judge <kind> --batch`: what the cache can settle is settled now, the rest goes into batches. */
export async function submitJudgeBatch<I extends JudgeItem, A>(store: Store, kind: JudgeKind<I, A>, o: SubmitOptions): Promise<SubmitResult> {
  const template = o.template ?? loadTemplate(kind.name, kind.placeholders, o.templateFile);
  const runId = checkRunId(o.runId ?? defaultRunId(kind, o.model, template));
  const repairs = o.repairs ?? DEFAULT_REPAIRS;
  const shape: RunShape = {kind, model: o.model, template, temperature: o.temperature ?? 0};
  const {items, notes} = await kind.items(store, {rater: o.model, runId, limit: o.limit, includeFailed: o.includeFailed});
  await checkResume(store, shape, runId, o.api.endpoint, runOptions(o, repairs));
  const todo = await casesToJudge(store, runId, items, notes);
  const w = await openRun(store, shape, runId, {endpoint: o.api.endpoint, options: {...runOptions(o, repairs), batch: true}});
  const tally: BatchTally = {ok: 0, failed: 0, unfinished: [], notes};
  // All at once: the cache lookups of cases started together share a query (loaders/run/cache.ts).
  const asked = (await Promise.all(todo.map((item) => advance(store, kind, w, repairs, {item, request: judgeRequest(shape, item), attempt: 1}, null, tally, o.api.endpoint))))
    .filter((a): a is Asked<I> => a !== null);
  const batches = asked.length ? await submit(store, o.api, runId, asked, o.fileLimits) : [];
  await finishRun(store, w);
  return {
    ...tally, runId, template, items: items.length, alreadyDone: items.length - todo.length, cases: asked.length,
    batches: batches.map((b) => ({id: b.batch.id, status: b.batch.status, requests: b.requests})),
  };
}

/** What one line of a batch's output or error file says about a request. */
type LineResult = {ok: true; text: string; promptTokens: number; completionTokens: number; finishReason: string | null; servedModel: string | null; systemFingerprint: string | null} | {ok: false; error: string};

/** Reads a batch output or error file into results by custom_id. A line that cannot be read is named in a note, never skipped silently. */
export function readBatchResults(text: string, file: string, notes: string[]): Map<string, LineResult> {
  const results = new Map<string, LineResult>();
  text.split("\n").forEach((raw, i) => {
    if (!raw.trim()) return;
    let line: {custom_id?: unknown; response?: {status_code?: number; body?: unknown} | null; error?: {code?: string; message?: string} | null};
    try {
      line = JSON.parse(raw);
    } catch (e) {
      notes.push(`${file}:${i + 1}: not JSON (${(e as Error).message}); the request on that line stays unanswered`);
      return;
    }
    if (typeof line.custom_id !== "string") {
      notes.push(`${file}:${i + 1}: custom_id: expected a string; the line was not used`);
      return;
    }
    const status = line.response?.status_code;
    const body = line.response?.body as {model?: string; system_fingerprint?: string | null; choices?: {message?: {content?: string | null}; finish_reason?: string}[];
      usage?: {prompt_tokens?: number; completion_tokens?: number}; error?: {message?: string}} | undefined;
    if (status === 200 && body && Array.isArray(body.choices)) {
      const choice = body.choices[0];
      results.set(line.custom_id, {
        ok: true, text: choice?.message?.content ?? "", finishReason: choice?.finish_reason ?? null,
        promptTokens: body.usage?.prompt_tokens ?? 0, completionTokens: body.usage?.completion_tokens ?? 0,
        servedModel: typeof body.model === "string" ? body.model : null, systemFingerprint: typeof body.system_fingerprint === "string" ? body.system_fingerprint : null,
      });
    } else {
      const why = line.error?.message ?? body?.error?.message ?? (status !== undefined ? `HTTP ${status}` : "no response");
      results.set(line.custom_id, {ok: false, error: `${line.error?.code ? `${line.error.code}: ` : ""}${why}`});
    }
  });
  return results;
}

export interface CollectOptions {
  api: BatchApi;
  prices?: PriceTable;
  /** Keep polling until no batch of the run is pending (follow-up repair batches included). */
  wait?: boolean;
  pollMs?: number;
  /** Stop waiting after this long; what is still pending stays pending. */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Told about each batch's status as it is seen. */
  onStatus?: (b: BatchInfo) => void;
}

export interface CollectResult extends BatchTally {
  runId: string;
  kind: string;
  model: string;
  /** Batches collected in this call, with the status they ended in. */
  collected: {id: string; status: string; answered: number; unanswered: number}[];
  /** Batches not finished yet (submitted repairs included). */
  pending: BatchInfo[];
  /** Follow-up batches started for repairs. */
  repairBatches: string[];
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Estimated, at the batch price; null when the price table lacks the model. */
  cost: number | null;
}

/** `sociometer judge --collect RUN`: polls the run's pending batches and writes what the finished ones answered. */
export async function collectJudgeBatches(store: Store, runId: string, o: CollectOptions): Promise<CollectResult> {
  const [run] = await rows<{kind: string; model: string; template: string; template_version: string; options: string | null; endpoint: string | null}>(store.conn,
    "SELECT kind, model, template, template_version, options::VARCHAR AS options, endpoint FROM judge_runs WHERE run_id = $1", [runId]);
  if (!run) throw new Error(`no judge run ${JSON.stringify(runId)} in the store (sociometer judge <kind> --batch starts one)`);
  // Its batches live at the endpoint that started them, and its cache keys name that endpoint.
  if (run.endpoint !== null && run.endpoint !== o.api.endpoint) {
    throw new Error(`run ${runId} was submitted to ${run.endpoint}, not ${o.api.endpoint}: collect it with --base-url ${run.endpoint}`);
  }
  const kind = getJudge(run.kind);
  const options = run.options ? JSON.parse(run.options) as {repairs?: number} : {};
  const repairs = options.repairs ?? DEFAULT_REPAIRS;
  const w: WriteContext = {runId, rater: run.model, sourceId: sourceIdOf(runId)};
  // Every case the run could hold, failed episodes included, so each pending request finds its case whatever options started the run.
  const {items} = await kind.items(store, {rater: run.model, runId, includeFailed: true});
  const byKey = new Map(items.map((i) => [i.key, i]));
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const result: CollectResult = {
    runId, kind: run.kind, model: run.model, ok: 0, failed: 0, unfinished: [], notes: [], collected: [], pending: [], repairBatches: [],
    requests: 0, promptTokens: 0, completionTokens: 0, cost: 0,
  };
  const started = Date.now();
  for (;;) {
    const open = await rows<{batch_id: string}>(store.conn, "SELECT batch_id FROM judge_batches WHERE run_id = $1 AND collected_at IS NULL ORDER BY submitted_at, batch_id", [runId]);
    if (!open.length) break;
    result.pending = [];
    for (const {batch_id} of open) {
      const info = await o.api.retrieve(batch_id);
      o.onStatus?.(info);
      await commitSoon(store, async () => {
        await store.conn.run("UPDATE judge_batches SET status = $2, checked_at = now(), output_file_id = $3, error_file_id = $4, message = $5 WHERE batch_id = $1",
          [batch_id, info.status, info.outputFileId, info.errorFileId, info.message]);
      });
      if (!FINAL_BATCH_STATES.includes(info.status)) {
        result.pending.push(info);
        continue;
      }
      await collectOne(store, kind, w, repairs, info, byKey, o, result);
    }
    const [{n}] = await rows<{n: number}>(store.conn, "SELECT count(*)::INTEGER AS n FROM judge_batches WHERE run_id = $1 AND collected_at IS NULL", [runId]);
    if (!o.wait || !n) break;
    if (o.timeoutMs !== undefined && Date.now() - started > o.timeoutMs) break;
    await sleep(o.pollMs ?? 30_000);
  }
  // Batches still pending after the last poll (repair batches just submitted included).
  const left = await rows<{batch_id: string; status: string}>(store.conn, "SELECT batch_id, status FROM judge_batches WHERE run_id = $1 AND collected_at IS NULL ORDER BY submitted_at, batch_id", [runId]);
  result.pending = left.map((b) => result.pending.find((p) => p.id === b.batch_id) ?? {id: b.batch_id, status: b.status, outputFileId: null, errorFileId: null, message: null, counts: null});
  await finishRun(store, w);
  if (kind.summary) for (const note of await kind.summary(store, runId)) result.notes.push(note);
  return result;
}

async function collectOne<I extends JudgeItem, A>(store: Store, kind: JudgeKind<I, A>, w: WriteContext, repairs: number, info: BatchInfo,
  byKey: Map<string, I>, o: CollectOptions, result: CollectResult): Promise<void> {
  const answers = new Map<string, LineResult>();
  for (const [file, label] of [[info.outputFileId, "output"], [info.errorFileId, "error"]] as const) {
    if (!file) continue;
    for (const [id, r] of readBatchResults(await o.api.content(file), `batch ${info.id} ${label} file ${file}`, result.notes)) answers.set(id, r);
  }
  const requests = await rows<{item: string; hash: string; attempt: number; request: string}>(store.conn,
    "SELECT item, hash, attempt, request::VARCHAR AS request FROM judge_batch_requests WHERE batch_id = $1 ORDER BY item", [info.id]);
  const done = new Set((await rows<{item: string}>(store.conn, "SELECT item FROM judgments WHERE run_id = $1", [w.runId])).map((r) => r.item));
  const cachedHashes = new Set<string>();
  const repairsAsked: Asked<I>[] = [];
  let answered = 0, unanswered = 0;
  for (const r of requests) {
    const request = JSON.parse(r.request) as ChatRequest;
    const answer = answers.get(r.hash);
    if (!answer || !answer.ok) {
      unanswered++;
      const why = answer ? answer.error : info.status === "completed" ? "missing from the batch's output" : `the batch ${info.status}${info.message ? ` (${info.message})` : ""}`;
      result.unfinished.push({key: r.item, error: why});
      continue;
    }
    answered++;
    if (!cachedHashes.has(r.hash)) {
      // The cache gets the answer under the same key an online call would use, whoever else asked it.
      cachedHashes.add(r.hash);
      const cost = o.prices ? costOf(o.prices, request.model, answer.promptTokens, answer.completionTokens) : null;
      await storeCall(store, {hash: r.hash, request, text: answer.text, promptTokens: answer.promptTokens, completionTokens: answer.completionTokens,
        finishReason: answer.finishReason, cost: cost === null ? null : cost * BATCH_PRICE_FACTOR, runId: w.runId,
        endpoint: o.api.endpoint, servedModel: answer.servedModel, systemFingerprint: answer.systemFingerprint});
      result.requests++;
      result.promptTokens += answer.promptTokens;
      result.completionTokens += answer.completionTokens;
      result.cost = cost === null || result.cost === null ? null : result.cost + cost * BATCH_PRICE_FACTOR;
    }
    if (done.has(r.item)) continue; // judged meanwhile (online, or an earlier collect cut short): the answer only fills the cache
    const item = byKey.get(r.item);
    if (!item) {
      result.notes.push(`case ${r.item} is no longer in the store; its answer was kept in the cache only`);
      continue;
    }
    const next = await advance(store, kind, w, repairs, {item, request, attempt: r.attempt}, answer.text, result, o.api.endpoint);
    if (next) repairsAsked.push(next);
  }
  // Repairs go out before the batch is marked collected: a collect killed in between finds them pending and does not ask twice.
  const elsewhere = new Set((await rows<{item: string}>(store.conn,
    `SELECT r.item FROM judge_batch_requests r JOIN judge_batches b USING (batch_id) WHERE b.run_id = $1 AND b.collected_at IS NULL AND b.batch_id <> $2`,
    [w.runId, info.id])).map((r) => r.item));
  const followUp = repairsAsked.filter((a) => !elsewhere.has(a.item.key));
  if (followUp.length) {
    const batches = await submit(store, o.api, w.runId, followUp);
    for (const b of batches) result.repairBatches.push(b.batch.id);
  }
  await commitSoon(store, async () => {
    await store.conn.run("UPDATE judge_batches SET collected_at = now() WHERE batch_id = $1", [info.id]);
  });
  result.collected.push({id: info.id, status: info.status, answered, unanswered});
}
