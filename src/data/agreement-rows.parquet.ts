// Instance rows for the agreement page (loaders/queries/agreement.ts): every
// rater's score per (episode, agent, dimension) on the SOTOPIA episodes that
// two or more raters scored, with the dimension's range and who played the
// agent. Rank statistics, perceived ranges and kappa need these instance rows;
// src/lib/agreement.ts pairs and scores them in the page as the CLI does.

import {agreementRowsSql} from "../../loaders/queries/agreement.js";
import {AGREEMENT_LIMIT, emitParquet} from "./store.js";

await emitParquet(agreementRowsSql(AGREEMENT_LIMIT));
