// Keeping secrets out of what the workbench prints and stores: an endpoint's
// answer or error can echo the key it was sent (plainly, URL-encoded or in
// base64), and a base URL can carry a password. Small and
// free of the openai package, so the CLI's top-level error handler can use it.

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
 * blank "test-run" or "test-model". Whatever follows "Bearer" or "api_key=" is
 * replaced in any case. For errors and whatever the workbench prints; answers
 * go through redactAnswer.
 */
export function redact(text: string, secrets: readonly (string | undefined | null)[]): string {
  return replaceForms(text.replace(CREDENTIAL_CONTEXT, (whole, before: string, value: string) => (isProseWord(before, value) ? whole : `${before}***`)), secrets);
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
 * LONG_SECRET characters or more, and nothing else. Unlike redact, it leaves
 * words alone ("the bearer of bad news", "the API key: none" are a model's
 * text, not credentials), and a short key, which a reply may use as a word.
 */
export function redactAnswer(text: string, secrets: readonly (string | undefined | null)[]): string {
  return replaceForms(text, secrets.filter((s): s is string => !!s && s.length >= LONG_SECRET));
}

function replaceForms(text: string, secrets: readonly (string | undefined | null)[]): string {
  const given = secrets.filter((s): s is string => !!s).flatMap(secretForms);
  // Longest first: a whole encoded form goes before the core it contains.
  const distinct = [...new Set(given)].sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of distinct) {
    out = s.length >= LONG_SECRET
      ? out.split(s).join("***")
      : out.replace(new RegExp(`(?<![${KEY_CHAR}])${escape(s)}(?![${KEY_CHAR}])`, "g"), "***");
  }
  return out;
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
