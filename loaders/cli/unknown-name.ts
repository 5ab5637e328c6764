// The error for a name the store has not got (a model, rater, source, run,
// dimension…): it says what the store has and, for a likely typo, the name
// meant, so a misspelt `model=` or `--rater` is never a silently empty table.

import {closest} from "../did-you-mean.js";

/** How many names the error lists before it counts the rest: a store may hold thousands of runs. */
const LISTED = 20;

/**
 * An Error saying that no `what` named `name` is in `where` (e.g. "the
 * store's sotopia rows"), with the nearest of `known` as a did-you-mean and
 * the known names listed (the first LISTED in the order given, then how many
 * more). The CLI exits 2 on it, as on any usage error.
 */
export function unknownName(what: string, name: string, known: readonly string[], where: string): Error {
  const meant = closest(name, known);
  const listed = known.slice(0, LISTED).join(", ") + (known.length > LISTED ? `, … and ${known.length - LISTED} more` : "");
  return new Error(`no ${what} ${JSON.stringify(name)} in ${where}${meant === undefined ? "" : `; did you mean ${JSON.stringify(meant)}?`}` +
    `; ${known.length ? `${what}s there: ${listed}` : `it has no ${what}s`}`);
}
