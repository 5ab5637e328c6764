// The store's cache of LLM calls (table llm_calls): a request's answer is
// kept under a hash of everything that shapes it, so asking again costs
// nothing and an interrupted run resumes from what it already has.

import {createHash} from "node:crypto";
import {rows, type Store} from "../store/db.js";
import type {ChatRequest} from "./chat.js";
import {commitSoon} from "./commits.js";

/**
 * The version of the cache key's layout. v2 added the endpoint: the same model
 * name on two servers (a q4 build on Ollama, fp16 on vLLM) gives different
 * answers, which must not be served for each other. Keys made before (v1)
 * are never matched again, so a request cached under v1 is asked anew.
 */
export const CACHE_KEY_VERSION = "v2";

/**
 * The cache key: sha256 of (key version, endpoint, model, messages,
 * parameters, template version, sample), in a fixed field order. `endpoint`
 * is the base URL as displayEndpoint shows it (no credentials, no query).
 */
export function requestHash(r: ChatRequest, endpoint: string): string {
  const canonical = JSON.stringify([
    CACHE_KEY_VERSION,
    endpoint,
    r.model,
    r.messages.map((m) => [m.role, m.content]),
    r.temperature ?? null,
    r.max_tokens ?? null,
    r.json ?? false,
    r.template ?? null,
    r.sample ?? null,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

export interface CachedCall {
  text: string;
  promptTokens: number;
  completionTokens: number;
}

export interface CallRecord extends CachedCall {
  hash: string;
  request: ChatRequest;
  finishReason: string | null;
  cost: number | null;
  runId: string | null;
  /** Where it was asked (displayEndpoint), what model the endpoint says answered, and its system_fingerprint: kept with the answer. */
  endpoint: string;
  servedModel?: string | null;
  systemFingerprint?: string | null;
  /** The price table entry the cost was computed from (the model, or the alias it fell back to), or null. */
  pricedAs?: string | null;
}

type Lookup = {hash: string; resolve: (c: CachedCall | null) => void; reject: (e: unknown) => void};
const lookups = new WeakMap<object, {pending: Lookup[]; running: boolean}>();

/** Answers every waiting lookup with one query; lookups that arrive meanwhile form the next one. */
async function lookUp(store: Store, q: {pending: Lookup[]; running: boolean}): Promise<void> {
  q.running = true;
  try {
    while (q.pending.length) {
      const batch = q.pending.splice(0, 500);
      try {
        const hashes = [...new Set(batch.map((l) => l.hash))];
        // On the store's second connection: a look-up waiting behind a group commit on the first held
        // every new request back by a commit's time. Answers not committed yet are not missed: the client
        // keeps a request in flight until its answer is committed, and joins a second ask of it to the first.
        const found = await rows<{hash: string; response: string | null; prompt_tokens: number | null; completion_tokens: number | null}>(await store.reader(),
          `SELECT hash, response, prompt_tokens, completion_tokens FROM llm_calls WHERE hash IN (${hashes.map((_, i) => `$${i + 1}`).join(", ")})`, hashes);
        const byHash = new Map(found.filter((f) => f.response !== null).map((f) => [f.hash, {
          text: (JSON.parse(f.response!) as {text: string}).text, promptTokens: f.prompt_tokens ?? 0, completionTokens: f.completion_tokens ?? 0,
        }]));
        for (const l of batch) l.resolve(byHash.get(l.hash) ?? null);
      } catch (e) {
        for (const l of batch) l.reject(e);
      }
    }
  } finally {
    q.running = false;
  }
}

/**
 * A cached answer, or null. Lookups made at the same time share one query (a
 * query per request made the store the bottleneck at high concurrency).
 */
export function cachedCall(store: Store, hash: string): Promise<CachedCall | null> {
  let q = lookups.get(store.conn);
  if (!q) lookups.set(store.conn, (q = {pending: [], running: false}));
  const answer = new Promise<CachedCall | null>((resolve, reject) => q!.pending.push({hash, resolve, reject}));
  // Wait one turn of the event loop so that the lookups of requests started together are gathered.
  if (!q.running) {
    q.running = true;
    setImmediate(() => void lookUp(store, q!));
  }
  return answer;
}

/** Keeps an answer. The request is stored as the workbench built it: model, messages and parameters, never headers or keys. */
export async function storeCall(store: Store, c: CallRecord): Promise<void> {
  await commitSoon(store, async (tx) => {
    tx.insert("llm_calls (hash, model, request, response, prompt_tokens, completion_tokens, cost, created_at, run_id)", "(?, ?, ?, ?, ?, ?, ?, now(), ?)",
      [c.hash, c.request.model, JSON.stringify(c.request), JSON.stringify({text: c.text, finish_reason: c.finishReason, endpoint: c.endpoint, model: c.servedModel ?? null, system_fingerprint: c.systemFingerprint ?? null, priced_as: c.pricedAs ?? null}),
        c.promptTokens, c.completionTokens, c.cost, c.runId],
      "ON CONFLICT (hash) DO NOTHING");
  });
}
