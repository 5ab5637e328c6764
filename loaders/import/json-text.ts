// Reading JSON text without parsing it: where a document nests too deeply, and
// on which line each element of a top-level array starts.

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
