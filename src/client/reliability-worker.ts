// The agreement page's reliability table, computed off the main thread: the
// page posts the rows and options, this worker runs reliabilityReport (the
// CLI's function) and posts progress now and then, then the report.

import type {RaterScore} from "../lib/agreement.js";
import {reliabilityReport, type ReliabilityOptions} from "../lib/reliability.js";

export interface ReliabilityRequest {
  rows: RaterScore[];
  options: Omit<ReliabilityOptions, "onProgress">;
}

self.onmessage = (event: MessageEvent<ReliabilityRequest>) => {
  const {rows, options} = event.data;
  try {
    const report = reliabilityReport(rows, {...options, onProgress: (done, total) => self.postMessage({kind: "progress", done, total})});
    self.postMessage({kind: "report", report});
  } catch (e) {
    self.postMessage({kind: "error", message: e instanceof Error ? e.message : String(e)});
  }
};
