// Reading JSON text without parsing it: where a document nests too deeply,
// where it gives one key twice or holds a lone surrogate escape, and on which
// line each element of a top-level array starts.

/**
 * Deeper than this is refused before parsing: logs nest a dozen levels, while
 * the recursive code after JSON.parse (JSON.stringify, structured clone to and
 * from workers) overflows the stack a few thousand levels down.
 */
export const MAX_JSON_DEPTH = 1000;

/** Where a document first nests deeper than the limit: the path to it (first levels only), and its position. */
export interface TooDeep {
  field: string;
  line: number;
  column: number;
}

/** How many leading levels of the path a TooDeep names. */
const PATH_LEVELS = 3;

const QUOTE = 34;
const BACKSLASH = 92;
const NEWLINE = 10;
const COMMA = 44;

/**
 * The first place `text` nests deeper than `limit`, or null. A linear scan
 * without recursion: strings are skipped with indexOf, so the loop visits
 * mostly the structural characters, and no nesting depth can overflow it.
 */
export function tooDeep(text: string, limit = MAX_JSON_DEPTH): TooDeep | null {
  // Each level below PATH_LEVELS: an object's last key, or an array's element index.
  const keys: (string | null)[] = new Array(PATH_LEVELS + 1).fill(null);
  const indices: number[] = new Array(PATH_LEVELS + 1).fill(0);
  const isArray: boolean[] = new Array(PATH_LEVELS + 1).fill(false);
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (depth >= 1 && depth <= PATH_LEVELS && !isArray[depth]) keys[depth] = text.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === 123 || c === 91) { // { [
      depth++;
      if (depth > limit) return {field: pathOf(keys, indices, isArray, Math.min(depth - 1, PATH_LEVELS)), line, column: i - lineStart + 1};
      if (depth <= PATH_LEVELS) {
        isArray[depth] = c === 91;
        keys[depth] = null;
        indices[depth] = 0;
      }
    } else if (c === 125 || c === 93) { // } ]
      depth--;
    } else if (c === COMMA) {
      if (depth >= 1 && depth <= PATH_LEVELS && isArray[depth]) indices[depth]++;
    } else if (c === NEWLINE) {
      line++;
      lineStart = i + 1;
    }
    i++;
  }
  return null;
}

/**
 * At least as many as the keys in `text` (a valid JSON document): a key's colon
 * follows its closing quote, or whitespace after it, so each key is counted
 * once. Also counted: a string that opens with a colon (`":)"`), rare in logs,
 * which only costs the exact check. Equal to the keys of the parsed tree when
 * no object gives a key twice (JSON.parse keeps one of them), so only a larger
 * count needs duplicateKey. One indexOf a colon: about 4 µs a 25 KB dump line
 * (200 colons), against 34 for JSON.parse.
 */
export function keyColons(text: string): number {
  let count = 0;
  for (let at = text.indexOf(":"); at !== -1; at = text.indexOf(":", at + 1)) {
    let before = at - 1;
    let c = text.charCodeAt(before);
    // Space, tab, CR, LF may stand between a key and its colon; inside a string only a space can, as in "Note : …".
    while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(--before);
    if (c === QUOTE && !escaped(text, before)) count++;
  }
  return count;
}

/** Whether the character at `at` follows an odd run of backslashes, i.e. is escaped. */
function escaped(text: string, at: number): boolean {
  let slashes = 0;
  while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
  return slashes % 2 === 1;
}

/** The second of two equal keys of one object: its path, and where both keys open (offsets of their quotes). */
export interface DuplicateKey {
  field: string;
  at: number;
  first: number;
}

/**
 * The first key that an object of `text` (a valid JSON document) gives a
 * second time, or null. Keys are compared as JSON.parse reads them, escapes
 * decoded (`"a"` and `"\u0061"` are one key); keys inside string values are text, not keys.
 */
export function duplicateKey(text: string): DuplicateKey | null {
  return walkStrings(text, (frames, isKey, open) => {
    if (!isKey) return null;
    const frame = frames[frames.length - 1]!;
    const first = frame.seen!.get(frame.key!);
    if (first !== undefined) return {field: fieldOf(frames), at: open, first};
    frame.seen!.set(frame.key!, open);
    return null;
  });
}

/**
 * The offset of the first lone surrogate escape in `text` (`\ud800` not followed
 * by a low-surrogate escape, or a low one not after a high one), or -1.
 * JSON.parse makes such an escape a lone UTF-16 code unit, which UTF-8 cannot
 * hold: the store would keep U+FFFD in its place. Text decoded from UTF-8 has no
 * surrogate of its own, so an escape is the only way one can enter, and the
 * escapes say where. A line with no `\u` costs one indexOf (about 3 µs a 25 KB
 * line); asking the parsed strings instead (isWellFormed) cost 30 µs a line
 * whose text is not Latin-1, as a Python dump's escaped apostrophes make it.
 */
export function loneSurrogate(text: string): number {
  for (let at = text.indexOf("\\u"); at !== -1; at = text.indexOf("\\u", at + 2)) {
    const unit = surrogateAt(text, at);
    // "\\ud800" is a backslash and five letters, not an escape.
    if (unit === 0 || escaped(text, at)) continue;
    if (unit === LOW || surrogateAt(text, at + 6) !== LOW) return at;
    at += 6;
  }
  return -1;
}

const HIGH = 1;
const LOW = 2;

/** Whether the `\uXXXX` at `at` writes a high surrogate (D800–DBFF), a low one (DC00–DFFF), or neither (0). */
function surrogateAt(text: string, at: number): number {
  if (text.charCodeAt(at) !== BACKSLASH || text.charCodeAt(at + 1) !== 117 || (text.charCodeAt(at + 2) | 0x20) !== 100) return 0; // u, d or D
  const digit = text.charCodeAt(at + 3) | 0x20; // 8 and 9 keep their code; A–F become a–f
  if (digit === 56 || digit === 57 || digit === 97 || digit === 98) return HIGH; // 8 9 a b
  return digit >= 99 && digit <= 102 ? LOW : 0; // c–f
}

/** The path of the string of `text` (a valid JSON document) that holds offset `at`: a value's path, or a key's own. */
export function fieldAt(text: string, at: number): string {
  return walkStrings(text, (frames, _isKey, open, close) => (at > open && at < close ? fieldOf(frames) : null)) ?? "(record)";
}

/** An open object or array while walking a document: its current key or element index. */
interface Frame {
  array: boolean;
  index: number;
  key: string | null;
  /** An object's keys so far, with the offset of each one's opening quote (only while looking for duplicates). */
  seen: Map<string, number> | null;
}

/**
 * Visits each string of `text` (a valid JSON document) in order, with the open
 * containers (a key already decoded and set as its object's current key) and
 * the offsets of its quotes, until `visit` returns something. Strings are
 * skipped with indexOf; only keys are decoded.
 */
function walkStrings<T>(text: string, visit: (frames: Frame[], isKey: boolean, open: number, close: number) => T | null): T | null {
  const frames: Frame[] = [];
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const close = closingQuote(text, i);
      const top = frames[frames.length - 1];
      const isKey = expectKey && top !== undefined && !top.array;
      if (isKey) {
        const raw = text.slice(i + 1, close);
        top.key = raw.includes("\\") ? (JSON.parse(text.slice(i, close + 1)) as string) : raw;
        expectKey = false;
      }
      const found = visit(frames, isKey, i, close);
      if (found !== null) return found;
      i = close;
    } else if (c === 123 || c === 91) { // { [
      const array = c === 91;
      frames.push({array, index: 0, key: null, seen: array ? null : new Map()});
      expectKey = !array;
    } else if (c === 125 || c === 93) { // } ]
      frames.pop();
    } else if (c === COMMA) {
      const top = frames[frames.length - 1];
      if (top?.array) top.index++;
      else expectKey = true;
    }
  }
  return null;
}

/** `scores.believability`, `messages[2].content`, `[1].models`: the path the open containers make. */
function fieldOf(frames: Frame[]): string {
  let path = "";
  for (const f of frames) {
    if (f.array) path += `[${f.index}]`;
    else if (f.key !== null) {
      // A key with a lone surrogate in it (that problem's own path) is shown escaped, as in the file.
      const key = LONE_SURROGATE.test(f.key) || !f.key ? JSON.stringify(f.key) : f.key;
      path += path ? `.${key}` : key;
    }
  }
  return path || "(record)";
}

/** In a `u` regular expression a surrogate range matches only the surrogates that are not half of a pair. */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** 1-based line and column of offset `at`, as tooDeep counts them. */
export function positionOf(text: string, at: number): {line: number; column: number} {
  let line = 1;
  let lineStart = 0;
  for (let nl = text.indexOf("\n"); nl !== -1 && nl < at; nl = text.indexOf("\n", nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return {line, column: at - lineStart + 1};
}

/** The index of the quote that closes the string opened at `open` (or the text's length when none does). */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return text.length;
}

function pathOf(keys: (string | null)[], indices: number[], isArray: boolean[], levels: number): string {
  let path = "";
  for (let d = 1; d <= levels; d++) {
    if (isArray[d]) path += `[${indices[d]}]`;
    else if (keys[d] !== null) path += `${path ? "." : ""}${keys[d]}`;
  }
  return `${path || "(record)"}…`;
}

/** 1-based line on which each element of a top-level JSON array starts (strings and nesting respected). */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\n") line++;
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (depth === 1 && expectElement && !/\s/.test(ch) && ch !== "]") {
      lines.push(line);
      expectElement = false;
    }
    if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (ch === "]" || ch === "}") depth--;
    else if (ch === "," && depth === 1) expectElement = true;
  }
  return lines;
}
