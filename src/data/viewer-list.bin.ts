// The episode viewer's list: every episode with a transcript, what the reader
// searches by, in pages the page fetches as the list grows (src/data/viewer-pack.ts).

import {writeListPack} from "./viewer-pack.js";
import {withStore} from "./store.js";

await withStore((store) => writeListPack(store.conn, process.stdout));
