// What a word of a spoken message is (spoken_words, migration 009), defined
// twice and held equal by test/store/spoken-words.test.ts: in SQL, which the
// migration ran over the messages of stores made before it, and in JS, which
// every import runs where it has each message's text in hand (the parse
// worker for the SOTOPIA dump, the store writer otherwise), so no import or
// build has to split every message again.

/**
 * The words of a spoken message, for the words-per-turn chart (SOTOPIA §7): a
 * run of non-whitespace in the message's text trimmed of spaces. Migration 009
 * holds the same expression, with the filter `trim(content) <> ''`.
 */
export const WORD_COUNT_SQL = "len(regexp_split_to_array(trim(content), '\\s+'))";

/**
 * DuckDB's one-argument trim() removes Unicode space separators (general
 * category Zs, through utf8proc) from both ends, and nothing else: not tabs,
 * newlines, U+2028 or zero-width spaces. Every Zs code point is in the BMP,
 * so one UTF-16 code unit is one code point here.
 */
const isTrimmed = (c: number): boolean =>
  c === 0x20 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;

/** RE2's \s: ASCII tab, newline, form feed, carriage return and space; not \v, not any Unicode space. */
const isSplit = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;

/**
 * WORD_COUNT_SQL of `content` under migration 009's filter: null for a message
 * that gets no spoken_words row (not action_type 'speak', no seat, or blank
 * once trimmed). Splitting keeps empty pieces at either end, as
 * regexp_split_to_array does ("\tHi" is two words: trim leaves the tab).
 */
export function spokenWords(actionType: string, agent: number | null, content: string): number | null {
  if (actionType !== "speak" || agent === null) return null;
  let start = 0;
  let end = content.length;
  while (start < end && isTrimmed(content.charCodeAt(start))) start++;
  while (end > start && isTrimmed(content.charCodeAt(end - 1))) end--;
  if (start === end) return null;
  return hasSplitBesidesSpace(content) ? wordsByChar(content, start, end) : wordsBySpaceRuns(content, start, end);
}

/** Whether `content` holds a tab, newline, form feed or carriage return (most messages hold none). */
const hasSplitBesidesSpace = (content: string): boolean =>
  content.includes("\n") || content.includes("\t") || content.includes("\r") || content.includes("\f");

/** Words in content[start, end) split on RE2's \s, one character at a time. */
function wordsByChar(content: string, start: number, end: number): number {
  let words = 1;
  let inGap = false;
  for (let i = start; i < end; i++) {
    if (isSplit(content.charCodeAt(i))) {
      if (!inGap) words++;
      inGap = true;
    } else {
      inGap = false;
    }
  }
  return words;
}

/**
 * wordsByChar for text whose only split character is the space: one more
 * than its runs of spaces, found by indexOf (native) instead of a loop over
 * every character, which cost about half of a dump line's row building.
 */
function wordsBySpaceRuns(content: string, start: number, end: number): number {
  let words = 1;
  for (let i = content.indexOf(" ", start); i !== -1 && i < end; i = content.indexOf(" ", i)) {
    words++;
    while (content.charCodeAt(i) === 0x20) i++;
  }
  return words;
}
