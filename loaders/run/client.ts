// The real `Chat`: the openai client against OpenAI or any compatible server
// (OPENAI_BASE_URL / --base-url, OPENAI_API_KEY), behind the store's cache, a
// concurrency limit and bounded retries, counting tokens and estimated cost.

import OpenAI, {APIError, toFile} from "openai";
import type {Store} from "../store/db.js";
import {cachedCall, requestHash, storeCall} from "./cache.js";
import type {Chat, ChatRequest, ChatResponse} from "./chat.js";
import {Limiter} from "./limiter.js";
import {priceEntry, type PriceTable} from "./prices.js";
import {redact, redactAnswer} from "./redact.js";
import {DEFAULT_RETRY, delayBefore, isEndpointBroken, isRetryable, retryAfterMs, type RetryPolicy} from "./retry.js";

export interface ClientOptions {
  /** Where answers are cached; without a store every call is a request. */
  store?: Store;
  /** The endpoint; default $OPENAI_BASE_URL, else OpenAI's. */
  baseURL?: string;
  /** Default $OPENAI_API_KEY. A local server that needs none gets a placeholder. */
  apiKey?: string;
  /** Requests in flight at most. */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  /** Per attempt, in milliseconds. */
  timeoutMs?: number;
  prices?: PriceTable;
  /** Recorded with each call this client makes, so a run's tokens and cost can be summed. */
  runId?: string;
  /** Told about each retry (for a log line); the message never holds the key. */
  onRetry?: (info: {attempt: number; delayMs: number; reason: string}) => void;
  /** Replaceable for tests of the backoff itself. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock for the total time bound (RetryPolicy.maxTotalMs); replaceable for tests. */
  now?: () => number;
  /**
   * Return an answer before it is committed to the cache, with `saved` to await
   * (ChatResponse.saved). The judges use it so that a call and the judgment made
   * from it are committed together; by default an answer is returned only once kept.
   */
  deferSave?: boolean;
}

export interface ChatStats {
  /** Requests that reached the endpoint and were answered. */
  requests: number;
  /** Answers taken from the cache. */
  cached: number;
  retries: number;
  promptTokens: number;
  completionTokens: number;
  /** Estimated USD for the priced requests. */
  cost: number;
  /** Requests whose model has no price in the table. */
  unpriced: number;
  /** Models priced by the entry of their name without the date suffix (prices.ts priceEntry): model → the entry used. */
  pricedAs: Record<string, string>;
}

export interface ChatClient {
  chat: Chat;
  stats: ChatStats;
  /** The endpoint as it may be shown and stored: no credentials, no query. */
  endpoint: string;
  /** The endpoint's Batch API (files and batches), for `sociometer judge --batch` and `--collect`. */
  batches: BatchApi;
}

/** A batch as the workbench keeps it. */
export interface BatchInfo {
  id: string;
  /** validating, in_progress, finalizing, completed, failed, expired, cancelling, cancelled. */
  status: string;
  outputFileId: string | null;
  errorFileId: string | null;
  /** The endpoint's reasons when it failed the batch, joined. */
  message: string | null;
  counts: {total: number; completed: number; failed: number} | null;
}

export interface BatchApi {
  /** The endpoint as displayEndpoint shows it; part of the cache key of every request asked through it. */
  endpoint: string;
  /** Uploads a JSONL file of requests (purpose "batch"); returns the file id. */
  upload(name: string, jsonl: string): Promise<string>;
  /** Starts a batch of chat completions over an uploaded file, with a 24 h completion window. */
  create(inputFileId: string, metadata: Record<string, string>): Promise<BatchInfo>;
  retrieve(batchId: string): Promise<BatchInfo>;
  /** A file's content as text (a batch's output or error file). */
  content(fileId: string): Promise<string>;
}

/** The batch states after which nothing more will change. */
export const FINAL_BATCH_STATES: readonly string[] = ["completed", "failed", "expired", "cancelled"];

function batchInfo(b: OpenAI.Batches.Batch, secrets: readonly (string | undefined)[]): BatchInfo {
  const errors = b.errors?.data?.map((d) => [d.code, d.message].filter(Boolean).join(": ")).filter(Boolean) ?? [];
  return {
    id: b.id, status: b.status, outputFileId: b.output_file_id ?? null, errorFileId: b.error_file_id ?? null,
    message: errors.length ? redact(errors.join("; "), secrets) : null,
    counts: b.request_counts ? {total: b.request_counts.total, completed: b.request_counts.completed, failed: b.request_counts.failed} : null,
  };
}

/** The chat-completions body of a request: the same for an online call and a line of a batch file. Cache-only fields (template, sample) stay out. */
export function completionBody(request: ChatRequest) {
  return {
    model: request.model,
    messages: request.messages,
    ...(request.temperature !== undefined ? {temperature: request.temperature} : {}),
    ...(request.max_tokens !== undefined ? {max_tokens: request.max_tokens} : {}),
    ...(request.json ? {response_format: {type: "json_object" as const}} : {}),
  };
}

const NO_KEY_PLACEHOLDER = "sk-no-key-needed";
export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** The endpoint without user:password or query string, fit to print and store. */
export function displayEndpoint(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, "")}`;
  } catch {
    return "(unreadable base URL)";
  }
}

export {redact} from "./redact.js";

export class ChatError extends Error {
  constructor(message: string, readonly retryable: boolean, readonly attempts: number) {
    super(message);
  }
}

export function createChat(options: ClientOptions = {}): ChatClient {
  // Empty or blank counts as not given, as the openai package treats an empty OPENAI_BASE_URL.
  const baseURL = options.baseURL?.trim() || process.env.OPENAI_BASE_URL?.trim() || DEFAULT_BASE_URL;
  if (!URL.canParse(baseURL)) throw new ChatError(`the base URL is not a URL (--base-url or OPENAI_BASE_URL): ${displayEndpoint(baseURL)}`, false, 0);
  // fetch refuses a URL with user:password@ (every request would fail as a "Connection error", retried): say so at once.
  if (new URL(baseURL).username || new URL(baseURL).password) {
    throw new ChatError(`the base URL ${displayEndpoint(baseURL)} holds a user name or password (user:password@host), which requests cannot carry: ` +
      "remove it; give the key in OPENAI_API_KEY (sent as a bearer token), or put a proxy that adds the credentials in front of the endpoint", false, 0);
  }
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  const retry = {...DEFAULT_RETRY, ...options.retry};
  const limiter = new Limiter(options.concurrency ?? 4);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const secrets = [apiKey];
  const endpoint = displayEndpoint(baseURL);
  const stats: ChatStats = {requests: 0, cached: 0, retries: 0, promptTokens: 0, completionTokens: 0, cost: 0, unpriced: 0, pricedAs: {}};
  const inFlight = new Map<string, Promise<ChatResponse>>();
  let client: OpenAI | null = null;

  const openai = (): OpenAI => {
    if (client) return client;
    const isOpenAI = new URL(baseURL).hostname === "api.openai.com";
    if (!apiKey && isOpenAI) throw new ChatError("OPENAI_API_KEY is not set: export it, or point --base-url / OPENAI_BASE_URL at a server that needs no key", false, 0);
    // Our own retries (below) replace the client's, so that Retry-After, jitter and the bound are ours and tested.
    client = new OpenAI({apiKey: apiKey || NO_KEY_PLACEHOLDER, baseURL, maxRetries: 0, timeout: options.timeoutMs ?? 120_000});
    return client;
  };

  const describe = (e: unknown): string => {
    const err = e as {status?: number; message?: string};
    const message = err.message ?? String(e);
    const base = err.status && !message.startsWith(String(err.status)) ? `HTTP ${err.status}: ${message}` : message;
    return redact(base, secrets);
  };

  const now = options.now ?? Date.now;
  // The circuit breaker (RetryPolicy.breakAfter): requests in a row that failed for good in a way asking again cannot fix.
  let brokenInARow = 0;
  let broken: string | null = null;

  /** Runs one call to the endpoint with our retry policy; a final failure is a ChatError with the key redacted. */
  const withRetries = async <T>(call: () => Promise<T>): Promise<T> => {
    if (broken) throw new ChatError(`not sent: the endpoint failed ${retry.breakAfter} requests in a row (${broken}); fix the key, host or path and run again`, false, 0);
    const started = now();
    const fail = (e: unknown, message: string, retryable: boolean, attempts: number): ChatError => {
      if (isEndpointBroken(e) && ++brokenInARow >= retry.breakAfter) broken ??= describe(e);
      return new ChatError(message, retryable, attempts);
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await call();
        brokenInARow = 0;
        return result;
      } catch (e) {
        if (e instanceof ChatError) throw e;
        const retryable = isRetryable(e);
        if (!retryable || attempt >= retry.maxRetries) {
          const why = retryable ? `gave up after ${attempt + 1} attempts` : "not retried";
          throw fail(e, `${describe(e)} (${why})`, retryable, attempt + 1);
        }
        const asked = e instanceof APIError ? retryAfterMs(e.headers as Headers | undefined) : null;
        if (asked !== null && asked > retry.maxRetryAfterMs) {
          throw fail(e, `${describe(e)} (the server asks to wait ${Math.round(asked / 1000)} s, more than the ${retry.maxRetryAfterMs / 1000} s allowed)`, true, attempt + 1);
        }
        const delayMs = delayBefore(attempt, e, retry);
        if (now() - started + delayMs > retry.maxTotalMs) {
          throw fail(e, `${describe(e)} (gave up after ${attempt + 1} attempts: another wait of ${(delayMs / 1000).toFixed(1)} s would pass the ${retry.maxTotalMs / 1000} s a request may take)`, true, attempt + 1);
        }
        stats.retries++;
        options.onRetry?.({attempt: attempt + 1, delayMs, reason: describe(e)});
        await sleep(delayMs);
      }
    }
  };

  const ask = async (request: ChatRequest, hash: string): Promise<ChatResponse> => {
    const completion = await withRetries(() => openai().chat.completions.create(completionBody(request)));
    const choice = completion.choices?.[0];
    // An endpoint may echo the key it was sent (in any field): nothing it says is kept or shown unredacted.
    const text = redactAnswer(choice?.message?.content ?? "", secrets);
    const said = (value: string | null | undefined) => (value ? redactAnswer(value, secrets) : null);
    const promptTokens = completion.usage?.prompt_tokens ?? 0;
    const completionTokens = completion.usage?.completion_tokens ?? 0;
    const priced = options.prices ? priceEntry(options.prices, request.model) : null;
    const cost = priced ? (promptTokens * priced.price.input_per_million + completionTokens * priced.price.output_per_million) / 1e6 : null;
    if (priced?.fallback) stats.pricedAs[request.model] = priced.key;
    stats.requests++;
    stats.promptTokens += promptTokens;
    stats.completionTokens += completionTokens;
    if (cost === null) stats.unpriced++;
    else stats.cost += cost;
    if (!options.store) return {text, promptTokens, completionTokens, cached: false};
    const saved = storeCall(options.store, {hash, request, text, promptTokens, completionTokens, finishReason: choice?.finish_reason ?? null, cost, runId: options.runId ?? null,
      endpoint, servedModel: said(completion.model), systemFingerprint: said(completion.system_fingerprint), pricedAs: priced?.key ?? null});
    if (!options.deferSave) {
      await saved;
      return {text, promptTokens, completionTokens, cached: false};
    }
    // The caller awaits `saved`; this handler only keeps a caller that does not from crashing the process.
    saved.catch(() => {});
    return {text, promptTokens, completionTokens, cached: false, saved};
  };

  // The Batch API: the same client, key handling and retries as chat requests.
  const batches: BatchApi = {
    endpoint,
    async upload(name, jsonl) {
      const file = await withRetries(async () => openai().files.create({file: await toFile(Buffer.from(jsonl, "utf8"), name, {type: "application/jsonl"}), purpose: "batch"}));
      return file.id;
    },
    async create(inputFileId, metadata) {
      // Creating a batch is not idempotent: one that the endpoint created before the answer was lost (a timeout, a
      // dropped connection, a 5xx) would be billed twice if simply asked again. After such a failure, the retry first
      // looks for a batch over the same input file and takes it.
      let mayExist = false;
      const created = await withRetries(async () => {
        if (mayExist) {
          const page = await openai().batches.list({limit: 100});
          const found = page.data.find((b) => b.input_file_id === inputFileId);
          if (found) return found;
        }
        try {
          return await openai().batches.create({input_file_id: inputFileId, endpoint: "/v1/chat/completions", completion_window: "24h", metadata});
        } catch (e) {
          const status = e instanceof APIError ? e.status : undefined;
          if (status === undefined || status === 408 || status >= 500) mayExist = true;
          throw e;
        }
      });
      return batchInfo(created, secrets);
    },
    async retrieve(batchId) {
      return batchInfo(await withRetries(() => openai().batches.retrieve(batchId)), secrets);
    },
    async content(fileId) {
      return withRetries(async () => redactAnswer(await (await openai().files.content(fileId)).text(), secrets));
    },
  };

  const answer = async (request: ChatRequest, hash: string): Promise<ChatResponse> => {
    if (options.store) {
      const hit = await cachedCall(options.store, hash);
      if (hit) {
        stats.cached++;
        // Kept before answers were redacted, an answer may still hold the key.
        return {...hit, text: redactAnswer(hit.text, secrets), cached: true};
      }
    }
    return limiter.run(() => ask(request, hash));
  };

  const chat: Chat = (request) => {
    const hash = requestHash(request, endpoint);
    // The same request asked again before its answer is in the cache is sent once. The slot is taken before the
    // cache is read: a lookup that read the cache just before the answer was committed, and resumed just after
    // the slot was freed, would otherwise send the request a second time.
    const pending = inFlight.get(hash);
    if (pending) return pending;
    const promise = answer(request, hash);
    inFlight.set(hash, promise);
    promise.then((r) => r.saved, () => undefined).catch(() => undefined).finally(() => inFlight.delete(hash));
    return promise;
  };

  return {chat, stats, endpoint, batches};
}
