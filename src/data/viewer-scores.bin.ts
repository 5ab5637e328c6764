// The episode viewer's score index: every SOTOPIA instance a rater scored, in
// blocks by the SOTOPIA page's cell, for the viewer's filtered lists (src/data/viewer-scores.ts).

import {writeScorePack} from "./viewer-scores.js";
import {withStore} from "./store.js";

await withStore((store) => writeScorePack(store.conn, process.stdout));
