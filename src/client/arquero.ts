// arquero for the pages: its browser build (OFFLINE.md item 2). Framework's
// bundler gives the UMD file's exports as the default import; where the file
// runs as a plain script instead (vitest), it sets globalThis.aq.

import bundled from "arquero/dist/arquero.min.js";

type Arquero = typeof bundled;

export const aq: Arquero = bundled ?? (globalThis as unknown as {aq: Arquero}).aq;
