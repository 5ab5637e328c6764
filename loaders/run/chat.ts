// The one seam between runners (episodes, judges) and the model endpoint.
// Episode runners and judges are written against `Chat`; loaders/run/client.ts
// supplies the real one (openai client, cache, retries, concurrency, cost), and
// tests can supply their own.

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  max_tokens?: number;
  /** Ask for a JSON object answer (response_format json_object) when the endpoint supports it. */
  json?: boolean;
  /** Names the prompt template and its version; part of the cache key, so editing a template re-asks. */
  template?: string;
  /**
   * Which independent sample this is; part of the cache key, never sent. Two
   * requests with the same messages but different samples are asked separately
   * (a runner's other run, or another repetition of an episode, draws anew);
   * the same sample is answered from the cache. Absent: one answer per request
   * (what a judge wants: the same prompt is judged once, whatever run asks).
   */
  sample?: string;
}

export interface ChatResponse {
  text: string;
  promptTokens: number;
  completionTokens: number;
  /** The answer came from the store's cache of earlier requests, no request was made. */
  cached: boolean;
  /**
   * Set by a client that returns before the answer is committed to its cache
   * (loaders/run/client.ts `deferSave`): resolves once it is, rejects if
   * keeping it failed. A caller that records something derived from the
   * answer awaits it with that record, so the two share one commit.
   */
  saved?: Promise<void>;
}

export type Chat = (request: ChatRequest) => Promise<ChatResponse>;

/**
 * `chat` with each answer committed to the cache before it is returned, so a
 * run killed at any moment resumes without asking anything twice. Over a
 * client made with deferSave the request's slot is free while the commit runs,
 * so other requests go out meanwhile.
 */
export function committedChat(chat: Chat): Chat {
  return async (request) => {
    const response = await chat(request);
    await response.saved;
    return response;
  };
}
