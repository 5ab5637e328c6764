// Worker thread entry for the SOTOPIA dump: parses, validates and normalises
// its segments of the file (see jsonl-worker.ts).

import {serveSegments} from "./jsonl-worker.js";
import {dumpIntoBatch, episodeItem} from "./sotopia.js";

serveSegments((doc, line) => episodeItem(doc, line, false), dumpIntoBatch);
