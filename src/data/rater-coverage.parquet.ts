// Which raters score which SOTOPIA episodes, and how many of those a human
// annotator or an LLM rater also scored (loaders/queries/agreement.ts): what
// the agreement page says the store holds before it compares anyone.

import {RATER_COVERAGE_SQL} from "../../loaders/queries/agreement.js";
import {emitParquet} from "./store.js";

await emitParquet(RATER_COVERAGE_SQL);
