// The options of one agreement view and the key the worker and the page keep it
// under: apart from the engine, so that the page can look up the views it holds
// without loading the statistics the engine computes them with.

import type {RaterChoice, SpreadBasis} from "../lib/agreement-labels.js";

export interface ViewOptions {
  a: RaterChoice;
  b: RaterChoice;
  bins: number;
  basis: SpreadBasis;
}

/** The key a view is kept under, in the worker and in the page's copy of the worker's views. */
export const viewKey = ({a, b, bins, basis}: ViewOptions): string => JSON.stringify([a, b, bins, basis]);
