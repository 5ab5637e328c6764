// The episode viewer's episodes, every one with a transcript, in blocks the
// page fetches one at a time with HTTP range requests (src/data/viewer-pack.ts).

import {writeEpisodePack} from "./viewer-pack.js";
import {withStore} from "./store.js";

await withStore((store) => writeEpisodePack(store.conn, process.stdout));
