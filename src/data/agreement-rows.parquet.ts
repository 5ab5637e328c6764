// Instance rows for the agreement page (loaders/queries/agreement.ts): every
// rater's score per (episode, agent, dimension) on every SOTOPIA episode that
// two or more raters scored, no cap, with numbered keys (AGREEMENT_COLUMNS_SQL)
// that the page's worker reads as typed arrays; the rater and dimension names
// the codes stand for come with data/agreement-summary.json. Rank statistics,
// perceived ranges and kappa need instance rows; src/client/agreement-engine.ts
// pairs and scores them in the worker with the library's numbers.

import {AGREEMENT_COLUMNS_SQL} from "../../loaders/queries/agreement.js";
import {emitParquet} from "./store.js";

await emitParquet(AGREEMENT_COLUMNS_SQL);
