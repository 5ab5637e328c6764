// Scoring one InformativeBench answer (METRICS.md § InformativeBench; iAgents
// Table 2): exact match after normalisation for the precision datasets, F1
// between sets of activities for Schedule Medium, IoU between unions of free
// spans for Schedule Hard.

import {findSpans, parseSpans, type Interval} from "./schedule-time.js";
import {intervalIoU, WHOLE_DAY} from "./schedule.js";

/** Which of the paper's three metrics a dataset is scored with. */
export type IbMetric = "precision" | "f1" | "iou";

/**
 * How a precision answer is matched: `exact` (default: the normalised
 * prediction equals a normalised gold answer) or `contains` (a normalised gold
 * answer appears as whole words inside the normalised prediction, for logs
 * whose predictions are sentences).
 */
export type MatchMode = "exact" | "contains";

/**
 * How ScheduleMedium's F1 reads a piece of free text that names no activity
 * of the stored schedule ("Gym, which lasts 3 hours"): `items` (default: an
 * item in |P| that matches nothing, so an invented activity costs precision)
 * or `commentary` (words around the names, left out of |P|). A set or list
 * literal's elements are items under both: each is an item by construction.
 */
export type FreeText = "items" | "commentary";

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = {twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90};
const SCALES: Record<string, number> = {hundred: 100, thousand: 1000};
const ARTICLES = new Set(["a", "an", "the"]);

const isNumberWord = (t: string) => t in UNITS || t in TENS || t in SCALES;

/** Where the last word of a number phrase leaves it: what may follow is decided by this. */
type NumberState = "unit" | "teen" | "tens" | "tens-unit" | "hundred" | "thousand";

/**
 * Reads the number phrase that starts at tokens[i] ("twenty one", "one hundred
 * and five", "two thousand twenty four", "hundred"), and returns its value and
 * the index after it. Two numbers side by side stay two: a unit or a teen
 * after a unit, teen or tens-and-unit ("one two", "seven eleven"), tens after
 * anything but a scale ("twenty twenty"), and a second "hundred" in one group
 * end the phrase. Zero is always a number on its own.
 */
function readNumber(tokens: readonly string[], i: number): {value: number; next: number} {
  let total = 0;
  let group = 0;
  let state: NumberState | null = null;
  let hundredInGroup = false;
  while (i < tokens.length) {
    const t = tokens[i]!;
    const after: NumberState | null = state;
    if (t === "and") {
      // "and" joins "one hundred and five" and "a thousand and one", and only there.
      const next = tokens[i + 1];
      if ((after === "hundred" || after === "thousand") && next !== undefined && ((next in UNITS && next !== "zero") || next in TENS)) {
        i++;
        continue;
      }
      break;
    }
    if (t === "zero") {
      if (after !== null) break;
      return {value: 0, next: i + 1};
    }
    if (t in UNITS) {
      const v = UNITS[t]!;
      const teen = v >= 10;
      const fits = after === null || after === "hundred" || after === "thousand" || (after === "tens" && !teen);
      if (!fits) break;
      group += v;
      state = after === "tens" ? "tens-unit" : teen ? "teen" : "unit";
    } else if (t in TENS) {
      if (!(after === null || after === "hundred" || after === "thousand")) break;
      group += TENS[t]!;
      state = "tens";
    } else if (t === "hundred") {
      if (hundredInGroup || !(after === null || after === "unit" || after === "teen")) break;
      group = (group || 1) * 100;
      hundredInGroup = true;
      state = "hundred";
    } else if (t === "thousand") {
      if (after === "thousand" || total > 0) break;
      total = (group || 1) * 1000;
      group = 0;
      hundredInGroup = false;
      state = "thousand";
    } else {
      break;
    }
    i++;
  }
  return {value: total + group, next: i};
}

/** Replaces each number phrase of a run of tokens (no punctuation inside) by its digits. */
function numberWordsToDigits(tokens: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    if (!isNumberWord(tokens[i]!)) {
      out.push(tokens[i]!);
      i++;
      continue;
    }
    const {value, next} = readNumber(tokens, i);
    out.push(String(value));
    i = next;
  }
  return out;
}

/**
 * The normal form two answers are compared in. In order: Unicode NFKC and
 * lower case; a hyphen between letters becomes a space ("twenty-one");
 * apostrophes are removed ("Rachel's" → "rachels"); thousands commas between
 * digits are removed ("1,000"); "." and ":" between digits are kept ("3.5",
 * "9:30"); every other punctuation mark or symbol becomes a space; the
 * articles a, an, the are dropped; runs of number words become digits ("twenty
 * one" → "21", "a hundred" → "100"); leading zeros of whole numbers go ("07" →
 * "7"); spaces collapse. Ordinals ("first") and number words inside other
 * words are left as they are.
 */
export function normaliseAnswer(text: string): string {
  let s = text.normalize("NFKC").toLowerCase();
  s = s.replace(/(?<=\p{L})-(?=\p{L})/gu, " ");
  s = s.replace(/['’‘`´]/g, "");
  s = s.replace(/(?<=\d),(?=\d{3}\b)/g, "");
  s = s.replace(/(?<=\d)[.:](?=\d)/g, (m) => (m === "." ? "\u0001" : "\u0002"));
  // Punctuation ends a number phrase: "two, one" is two numbers, not three.
  const pieces = s.split(/[^\p{L}\p{N}\s\u0001\u0002]+/u);
  const tokens = pieces.flatMap((piece) => numberWordsToDigits(piece.replace(/\u0001/g, ".").replace(/\u0002/g, ":").split(/\s+/).filter((t) => t !== "")));
  // Articles go, unless the answer is nothing but articles (a gold answer "A").
  const kept = tokens.filter((t) => !ARTICLES.has(t));
  return (kept.length ? kept : tokens).map((t) => (/^\d+$/.test(t) ? String(Number(t)) : t)).join(" ");
}

/** Words that say "nothing" (no activity to delete), read as the number 0 against a gold answer of 0. */
const NOTHING_PHRASES = ["none", "nothing", "no activities", "no activity", "no deletions", "no deletion", "no conflicts", "no overlaps", "not any"];
/** A word that turns the next one into its opposite: "not Ross". */
const NEGATIONS = new Set(["not", "no", "never", "isnt", "wasnt", "arent", "werent", "neither", "nor"]);
const isNumberToken = (t: string) => /^\d+(?:\.\d+)?$/.test(t);

/** Start positions where `needle` occurs as whole tokens in `tokens`. */
function occurrences(tokens: readonly string[], needle: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + needle.length <= tokens.length; i++) if (needle.every((t, k) => tokens[i + k] === t)) out.push(i);
  return out;
}

/**
 * Does the normalised prediction contain the normalised gold `n`, the way
 * `contains` reads it? As whole words, and not right after a negation ("not
 * Ross, it was Rachel" does not contain Ross). A number must be the only
 * number in the prediction ("between 2 and 3" does not contain 2); a gold of
 * 0 is also said by "none", "nothing", "no activities".
 */
function containsAnswer(tokens: readonly string[], n: string): boolean {
  const needle = n.split(" ");
  const affirmed = occurrences(tokens, needle).some((i) => i === 0 || !NEGATIONS.has(tokens[i - 1]!));
  if (!isNumberToken(n)) return affirmed;
  const numbers = tokens.filter(isNumberToken);
  if (numbers.length) return affirmed && numbers.every((x) => Number(x) === Number(n));
  return Number(n) === 0 && NOTHING_PHRASES.some((phrase) => occurrences(tokens, phrase.split(" ")).length > 0);
}

/** Is the prediction one of the gold answers after normalisation (or, under `contains`, does it contain one as whole words)? */
export function answerMatches(prediction: string, gold: readonly string[], mode: MatchMode = "exact"): boolean {
  const p = normaliseAnswer(prediction);
  const tokens = p.split(" ");
  return gold.some((g) => {
    const n = normaliseAnswer(g);
    if (n === "") return false;
    if (mode === "contains") return containsAnswer(tokens, n);
    return p === n || (n === "0" && NOTHING_PHRASES.includes(p));
  });
}

/**
 * Does a text say in words that there is nothing to list: "none", "nothing",
 * "no (common) free time", "no activity", "nobody is free"? Only such a text
 * reads as an empty answer; "I don't know" or an unreadable span does not.
 */
export function saysNothing(text: string): boolean {
  return /\b(?:none|nothing|no\s+(?:common\s+|shared\s+|mutual\s+)?(?:free\s+)?(?:time|time\s+spans?|spans?|slots?|periods?|windows?|activit(?:y|ies))|(?:nobody|no\s+one)\s+is\s+free)\b/i.test(text);
}

/**
 * The items of a list answer, normalised and without repeats: text in
 * parentheses is dropped ("Gym (Alice)"); split at commas, semicolons, "&",
 * new lines, the word "and" and list numbers ("1. Gym 2. Yoga"); list markers
 * ("- ") are dropped. Used when the schedule is not known: an activity whose
 * name contains "and" is then two items, on both sides alike.
 */
export function answerItems(text: string): string[] {
  const pieces = text.replace(/\([^()]*\)/g, " ").split(/[,;&\n]|\band\b|(?:^|\s)\d+[.)](?=\s)/i).map((p) => p.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, ""));
  return [...new Set(pieces.map(normaliseAnswer).filter((p) => p !== ""))];
}

/**
 * The activity names of a schedule that a text mentions, normalised: each
 * name found as whole words, longest names first, a stretch of text counting
 * for one name only ("Rock and Roll class" is one activity, not also "Roll
 * class"). Other words are ignored ("Gym, which lasts 3 hours" names Gym).
 */
export function namesIn(text: string, names: readonly string[]): string[] {
  const tokens = normaliseAnswer(text).split(" ");
  const used = new Array<boolean>(tokens.length).fill(false);
  const candidates = [...new Set(names.map(normaliseAnswer).filter((n) => n !== ""))]
    .map((n) => n.split(" ")).sort((a, b) => b.length - a.length || b.join(" ").length - a.join(" ").length);
  const found: string[] = [];
  for (const name of candidates) {
    for (const i of occurrences(tokens, name)) {
      if (name.some((_, k) => used[i + k])) continue;
      for (let k = 0; k < name.length; k++) used[i + k] = true;
      if (!found.includes(name.join(" "))) found.push(name.join(" "));
    }
  }
  return found;
}

/** The quoted elements of a set or list literal (`{'Gym', 'Lunch'}`, `["Gym"]`), or null for other text. */
function literalElements(text: string): string[] | null {
  if (!/^\s*[[{(]\s*(['"]).*\1\s*,?\s*[\]})]\s*$/s.test(text)) return null;
  const out: string[] = [];
  for (const m of text.matchAll(/'([^']*)'|"([^"]*)"/g)) out.push(m[1] ?? m[2] ?? "");
  return out;
}

/**
 * A prediction's items for F1 against a stored schedule (docs/formats.md
 * "F1 (ScheduleMedium)"): the activity names it mentions, plus every item
 * that names none, which is in |P| and matches nothing (an invented
 * activity must cost precision). Items are a set/list literal's elements,
 * else the pieces answerItems splits free text into; a piece holding a word
 * of a name found in the whole text is part of that name ("We think it is
 * the Rock" and "Roll class" of "… Rock and Roll class"), not an item. Under
 * `freeText` = `commentary` the free-text pieces that name nothing are left
 * out; a literal's elements never are.
 */
export function scheduleItems(prediction: string, names: readonly string[], freeText: FreeText = "items"): string[] {
  const elements = literalElements(prediction);
  const found = new Set<string>();
  const unnamed = new Set<string>();
  if (elements) {
    for (const e of elements) {
      const inside = namesIn(e, names);
      if (inside.length) for (const n of inside) found.add(n);
      else if (normaliseAnswer(e) !== "") unnamed.add(normaliseAnswer(e));
    }
  } else {
    for (const n of namesIn(prediction, names)) found.add(n);
    if (freeText === "commentary") return Array.from(found);
    const nameWords = new Set<string>();
    for (const n of found) for (const w of n.split(" ")) nameWords.add(w);
    for (const piece of answerItems(prediction)) {
      if (namesIn(piece, names).length || saysNothing(piece)) continue;
      if (piece.split(" ").some((w) => nameWords.has(w))) continue;
      unnamed.add(piece);
    }
  }
  for (const u of unnamed) found.add(u);
  return Array.from(found);
}

/** Under `contains`, without a schedule: a predicted piece that contains gold items as whole words stands for them. */
function containedItems(pieces: readonly string[], gold: readonly string[]): string[] {
  return [...new Set(pieces.flatMap((piece) => {
    const inside = namesIn(piece, gold);
    return inside.length ? inside : [piece];
  }))];
}

/** F1 between two sets: 2·|P ∩ G| / (|P| + |G|); two empty sets agree perfectly (1). */
export function setF1(predicted: readonly string[], gold: readonly string[]): number {
  const p = new Set(predicted);
  const g = new Set(gold);
  if (p.size === 0 && g.size === 0) return 1;
  let both = 0;
  for (const x of p) if (g.has(x)) both++;
  return (2 * both) / (p.size + g.size);
}

/** Gold free spans, read strictly: each gold string is a list of spans. Throws on a span that does not parse. */
export const goldSpans = (gold: readonly string[]): Interval[] => gold.flatMap((g) => parseSpans(g));

/** Gold items of a list answer: each gold string may itself be a list. */
export const goldItems = (gold: readonly string[]): string[] => [...new Set(gold.flatMap(answerItems))];

/**
 * The gold activities of a Medium question as a set: with the schedule's
 * names, the names each gold string mentions (none for a gold that says
 * "none" or an empty list); null when the gold names no activity of the
 * schedule (the caller falls back to splitting).
 */
export function goldNames(gold: readonly string[], names: readonly string[]): string[] | null {
  const found = [...new Set(gold.flatMap((g) => namesIn(g, names)))];
  if (found.length || gold.every(saysNothing)) return found;
  return null;
}

/** What scoring may know about a question beyond its texts: the schedule's activity names and day, when the store has the schedule. */
export interface ScoreContext {
  names?: readonly string[] | null;
  day?: Interval | null;
}

export interface QuestionScore {
  /** In [0, 1]: 1 or 0 for precision, F1 or IoU otherwise. */
  score: number;
  /** What went wrong with the prediction, or a choice made reading it (never with the gold: that is checked at import). */
  problem: string | null;
}

function scoreF1(prediction: string, gold: readonly string[], match: MatchMode, freeText: FreeText, names: readonly string[] | null): QuestionScore {
  const fromSchedule = names ? goldNames(gold, names) : null;
  if (names && fromSchedule) {
    if (!namesIn(prediction, names).length && !saysNothing(prediction)) return {score: 0, problem: "names no activity of the schedule and does not say none"};
    const predicted = scheduleItems(prediction, names, freeText);
    return {score: setF1(predicted, fromSchedule), problem: null};
  }
  const goldSet = goldItems(gold);
  const pieces = answerItems(prediction);
  const predicted = match === "contains" ? containedItems(pieces, goldSet) : pieces;
  return {score: setF1(predicted, goldSet), problem: names ? "the gold names no activity of the schedule: items split at commas and \"and\"" : null};
}

function scoreIoU(prediction: string, gold: readonly string[], day: Interval): QuestionScore {
  const found = findSpans(prediction, {day});
  const goldList = goldSpans(gold);
  const notes = [...found.problems.map((p) => `left out ${p}`), ...found.notes];
  if (found.spans.length === 0) {
    if (!found.problems.length && saysNothing(prediction)) return {score: goldList.length === 0 ? 1 : 0, problem: null};
    return {score: 0, problem: notes.length ? `no valid span (${notes.join("; ")})` : "no time span found and no explicit \"none\": scored 0"};
  }
  return {score: intervalIoU(found.spans, goldList), problem: notes.length ? notes.join("; ") : null};
}

/**
 * Scores one prediction against its gold answers under the dataset's metric.
 * A missing prediction scores 0 whatever the gold. F1 reads activity names
 * from the schedule when `context.names` is given, and free text that names
 * none of them under `freeText` (only then); IoU bounds "before 9" and
 * "after 18:00" by `context.day` (default the whole day).
 */
export function scoreAnswer(metric: IbMetric, prediction: string | null, gold: readonly string[],
  {match = "exact", freeText = "items", context = {}}: {match?: MatchMode; freeText?: FreeText; context?: ScoreContext} = {}): QuestionScore {
  if (prediction === null || prediction.trim() === "") return {score: 0, problem: "no prediction"};
  if (metric === "precision") return {score: answerMatches(prediction, gold, match) ? 1 : 0, problem: null};
  if (metric === "f1") return scoreF1(prediction, gold, match, freeText, context.names ?? null);
  return scoreIoU(prediction, gold, context.day ?? WHOLE_DAY);
}
