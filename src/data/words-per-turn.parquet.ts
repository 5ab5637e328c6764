// Words per turn by speaker model (loaders/queries/sotopia.ts): spoken
// utterances and their total whitespace-separated words per model (or
// `human`), for the SOTOPIA page's words-per-turn chart (SOTOPIA §7).

import {WORDS_PER_TURN_SQL} from "../../loaders/queries/sotopia.js";
import {emitSharedParquet} from "./shared-query.js";

await emitSharedParquet(WORDS_PER_TURN_SQL);
