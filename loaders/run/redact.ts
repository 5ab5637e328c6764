// Keeping secrets out of what the workbench prints and stores: an endpoint's
// answer or error can echo the key it was sent (plainly, URL-encoded, in
// base64, or only in part, as without its `sk-proj-` prefix), and a base URL
// can carry a password. Small and free of the openai package, so the CLI's
// top-level error handler can use it.

/** Texts that carry a credential whatever it is: `Bearer X`, `api_key=X`, `"api-key": "X"`, `API key provided: X` (a sentence's full stop is not part of X). */
const CREDENTIAL_CONTEXT = /(\bAPI key provided:\s*(?:Bearer\s+)?|\bBearer\s+|\bapi[-_ ]?key["']?\s*[=:]\s*["']?)([^\s"',;}]*[^\s"',;}.])/gi;

/** Characters a key is made of: a short secret is replaced only where it stands alone, not inside a longer word. */
const KEY_CHAR = "A-Za-z0-9_\\-";

/** A secret this long is no word of a message: it is replaced wherever it occurs. */
const LONG_SECRET = 8;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const base64 = (text: string): string => Buffer.from(text, "utf8").toString("base64");
const urlSafe = (b64: string): string => b64.replaceAll("+", "-").replaceAll("/", "_");

/**
 * The base64 characters that encode `secret` alone, wherever it starts in the
 * encoded text (three alignments): the characters at its edges also carry bits
 * of its neighbours and are left. Catches `user:<key>` of Basic auth and
 * `Bearer <key>` or a whole JSON body echoed in base64, whatever precedes it.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.byteLength(secret, "utf8");
  return [0, 1, 2].map((offset) => {
    const encoded = base64("\0".repeat(offset) + secret).replace(/=+$/, "");
    return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes)) / 6));
  });
}

/**
 * A secret and the forms an endpoint may echo it in: URL-encoded, and base64
 * (standard and URL-safe) of the secret, of `Bearer <secret>` and of
 * `:<secret>`, whole and padded, then the characters that encode the secret
 * anywhere in a base64 text. A short secret is only itself: its encodings
 * would be a few characters that ordinary text may hold.
 */
export function secretForms(secret: string): string[] {
  if (secret.length < LONG_SECRET) return [secret];
  const whole = [secret, `Bearer ${secret}`, `:${secret}`].map(base64);
  const encoded = [...whole, ...base64Cores(secret)];
  return [secret, encodeURIComponent(secret), ...encoded, ...encoded.map(urlSafe)];
}

/**
 * Replaces every secret in a text with ***, in each of its forms (secretForms):
 * a long one wherever it occurs, a short one (a local server's "abc") as a
 * whole token only, so that a key that happens to be a word ("test") does not
 * blank "test-run" or "test-model"; and any run of SECRET_RUN characters of a
 * secret, wherever it stands. Whatever follows "Bearer" or "api_key=" is
 * replaced in any case. For errors and whatever the workbench prints; answers
 * go through redactAnswer.
 */
export function redact(text: string, secrets: readonly (string | undefined | null)[]): string {
  const spans: number[] = [];
  for (const m of text.matchAll(CREDENTIAL_CONTEXT)) {
    if (!isProseWord(m[1], m[2])) spans.push(m.index + m[1].length, m.index + m[0].length);
  }
  return replaceForms(text, secrets, spans);
}

/**
 * Is a "bearer" match the workbench's own words ("sent as a bearer token)")
 * rather than a credential? Only for "bearer" in lower case (the scheme is
 * written "Bearer") followed by a lower-case word: a key so plain is still
 * replaced where it is one of the secrets given.
 */
const isProseWord = (before: string, value: string): boolean => /^bearer\s+$/.test(before) && /^[a-z]+\)?$/.test(value);

/**
 * What an endpoint answered (a reply, a judge's rationale, a batch output
 * file), before it is stored or played back: every form of each key of
 * LONG_SECRET characters or more, and every run of SECRET_RUN characters of
 * one, and nothing else. Unlike redact, it leaves
 * words alone ("the bearer of bad news", "the API key: none" are a model's
 * text, not credentials), and a short key, which a reply may use as a word.
 */
export function redactAnswer(text: string, secrets: readonly (string | undefined | null)[]): string {
  return replaceForms(text, secrets.filter((s): s is string => !!s && s.length >= LONG_SECRET));
}

/** What redacting with one secret needs, worked out once per secret rather than once per text. */
interface Prepared {
  /** Its forms (secretForms) found by plain search. */
  literal: string[];
  /** A short secret as a whole token; null for a long one. */
  token: RegExp | null;
  /** Every SECRET_RUN-character window of the secret; empty for a shorter one. */
  windows: Set<string>;
  /** The windows' rolling hashes (windowHash), so that a text's windows are compared as numbers and sliced only on a hit. */
  hashes: Set<number>;
  /** The characters of the secret: ASCII ones as a table (one read per character looked at), the rest as a set. */
  ascii: Uint8Array;
  other: Set<number>;
}

/**
 * A run of this many characters of a secret is part of it wherever it stands:
 * an endpoint may echo the key without its `sk-proj-` prefix, or cut it. At 16
 * characters of a key's random part, no ordinary text holds one by chance.
 */
const SECRET_RUN = 16;

/** A polynomial hash of SECRET_RUN characters, modulo 2^32, that rolls one character on with two multiplications. */
const HASH_BASE = 0x01000193;
/** HASH_BASE^(SECRET_RUN - 1): the weight of a window's first character, taken off as it rolls out. */
const HASH_TOP = Array.from({length: SECRET_RUN - 1}).reduce<number>((h) => Math.imul(h, HASH_BASE), 1);

function windowHash(text: string, at: number): number {
  let h = 0;
  for (let i = at; i < at + SECRET_RUN; i++) h = (Math.imul(h, HASH_BASE) + text.charCodeAt(i)) | 0;
  return h;
}

/** A process sees a handful of secrets: the bound only stops a caller that passes many from growing it. */
const prepared = new Map<string, Prepared>();
const PREPARED_MAX = 64;

function prepare(secret: string): Prepared {
  const known = prepared.get(secret);
  if (known) return known;
  const windows = new Set<string>();
  for (let i = 0; i + SECRET_RUN <= secret.length; i++) windows.add(secret.slice(i, i + SECRET_RUN));
  const hashes = new Set([...windows].map((w) => windowHash(w, 0)));
  const ascii = new Uint8Array(128);
  const other = new Set<number>();
  for (let i = 0; i < secret.length; i++) {
    const c = secret.charCodeAt(i);
    if (c < 128) ascii[c] = 1;
    else other.add(c);
  }
  const p: Prepared = {
    literal: [...new Set(secretForms(secret))].filter((f) => f.length >= LONG_SECRET),
    token: secret.length >= LONG_SECRET ? null : new RegExp(`(?<![${KEY_CHAR}])${escape(secret)}(?![${KEY_CHAR}])`, "g"),
    windows, hashes, ascii, other,
  };
  if (prepared.size >= PREPARED_MAX) prepared.clear();
  prepared.set(secret, p);
  return p;
}

/**
 * Adds to `spans` (start, end pairs) every window of `text` that is a window
 * of the secret. Overlapping windows chain into the whole run, however long,
 * since each character of a run of SECRET_RUN or more lies in one of them.
 * Any SECRET_RUN characters in a row hold one character of every SECRET_RUN-th
 * position, so only those are read at first: where one is of the secret's
 * alphabet, the stretch of that alphabet around it is searched. Prose, whose
 * spaces and punctuation break such stretches, is mostly skipped unread.
 */
function addRuns(text: string, p: Prepared, spans: number[]): void {
  if (!p.windows.size) return;
  const ofSecret = (i: number): boolean => {
    const c = text.charCodeAt(i);
    return c < 128 ? p.ascii[c] === 1 : p.other.has(c);
  };
  for (let i = SECRET_RUN - 1; i < text.length; ) {
    if (!ofSecret(i)) {
      i += SECRET_RUN;
      continue;
    }
    let start = i;
    while (start > 0 && ofSecret(start - 1)) start--;
    let end = i + 1;
    while (end < text.length && ofSecret(end)) end++;
    if (end - start >= SECRET_RUN) {
      let h = windowHash(text, start);
      for (let at = start; ; at++) {
        if (p.hashes.has(h) && p.windows.has(text.slice(at, at + SECRET_RUN))) spans.push(at, at + SECRET_RUN);
        if (at + SECRET_RUN >= end) break;
        h = (Math.imul(h - Math.imul(text.charCodeAt(at), HASH_TOP), HASH_BASE) + text.charCodeAt(at + SECRET_RUN)) | 0;
      }
    }
    // text[end] is not of the secret: a later run starts after it and so holds end + SECRET_RUN.
    i = end + SECRET_RUN;
  }
}

/**
 * Replaces with *** every span of `text` that holds a form of a secret or a
 * run of one, plus the `spans` given. Every span is found in the original text
 * and overlapping ones are merged before anything is replaced: replacing one
 * form first could cut another, or a run, into pieces that no longer match and
 * would be left in the clear.
 */
function replaceForms(text: string, secrets: readonly (string | undefined | null)[], spans: number[] = []): string {
  for (const secret of new Set(secrets)) {
    if (!secret) continue;
    const p = prepare(secret);
    for (const form of p.literal) {
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) spans.push(at, at + form.length);
    }
    if (p.token) for (const m of text.matchAll(p.token)) spans.push(m.index, m.index + m[0].length);
    addRuns(text, p, spans);
  }
  if (!spans.length) return text;
  const order = Array.from({length: spans.length / 2}, (_, k) => k).sort((a, b) => spans[2 * a] - spans[2 * b]);
  let out = "";
  let kept = 0;
  for (let k = 0; k < order.length; ) {
    const start = spans[2 * order[k]];
    let end = spans[2 * order[k] + 1];
    // Overlapping spans are one secret's text; spans that only touch (a key echoed twice in a row) stay two ***, as they always did.
    for (k++; k < order.length && spans[2 * order[k]] < end; k++) end = Math.max(end, spans[2 * order[k] + 1]);
    out += `${text.slice(kept, start)}***`;
    kept = end;
  }
  return out + text.slice(kept);
}

/** The password of a base URL, if it has one (URL-decoded too, as a server may echo either). */
function passwordsOf(url: string | undefined): string[] {
  if (!url || !URL.canParse(url.trim())) return [];
  const p = new URL(url.trim()).password;
  return p ? [p, decodeURIComponent(p)] : [];
}

/** Every secret a command line may have brought: $OPENAI_API_KEY, and the passwords of $OPENAI_BASE_URL and any --base-url. */
export function cliSecrets(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const urls = argv.flatMap((a, i) => (a === "--base-url" ? [argv[i + 1]] : a.startsWith("--base-url=") ? [a.slice("--base-url=".length)] : []));
  return [env.OPENAI_API_KEY, ...passwordsOf(env.OPENAI_BASE_URL), ...urls.flatMap(passwordsOf)].filter((s): s is string => !!s);
}
