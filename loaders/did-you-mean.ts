// Suggestions for a misspelt name (an option, a format, a report): the known
// name within a small edit distance, so a typo gets "did you mean …?".

/**
 * Edits (insert, delete, substitute, or swap two neighbouring characters)
 * that turn `a` into `b`: the optimal-string-alignment form of the
 * Damerau–Levenshtein distance, where a swap counts as one typo, not two.
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the dynamic-programming table are enough: a swap looks back two rows.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({length: b.length + 1}, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length];
}

/**
 * The candidate nearest to `word`, if it is close enough to be a typo of it:
 * none for names of one or two characters (any other such name is one edit
 * away, so `-x` is no typo of `-h`), one edit up to four characters, two for
 * longer ones (`fromat` → `format`). Ties go to the earlier candidate.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const limit = word.length <= 2 ? 0 : word.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
