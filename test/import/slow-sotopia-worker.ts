// A SOTOPIA parse worker that takes 20 ms a line (test/import/sotopia-workers.test.ts):
// slow enough that the reading thread, not the worker, reads most segments.

import {serveSegments} from "../../loaders/import/jsonl-worker.js";
import {episodeItem} from "../../loaders/import/sotopia.js";

const pause = new Int32Array(new SharedArrayBuffer(4));

serveSegments((doc, line) => {
  Atomics.wait(pause, 0, 0, 20);
  return episodeItem(doc, line, false);
});
