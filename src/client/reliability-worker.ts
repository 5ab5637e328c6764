// The agreement page's reliability table, computed off the main thread: the
// page posts where the rows are and the options; this worker reads the rows,
// runs reliabilityReport (the CLI's function), posts the stage and progress
// now and then, then the report and the first judge's Bland–Altman pairs.

import {computeReliability, type ReliabilityRequest} from "./reliability.js";

self.onmessage = async (event: MessageEvent<ReliabilityRequest>) => {
  try {
    const result = await computeReliability(event.data,
      (done, total) => self.postMessage({kind: "progress", done, total}),
      (text) => self.postMessage({kind: "stage", text}));
    self.postMessage({kind: "result", result});
  } catch (e) {
    self.postMessage({kind: "error", message: e instanceof Error ? e.message : String(e)});
  }
};
