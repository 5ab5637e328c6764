// Import errors a user can act on: which file, which line (or CSV row), which field, what was expected.

import {LocatedError} from "../../src/lib/located-error.js";

export class ImportError extends LocatedError {
  override name = "ImportError";
}

/** A record-level problem, raised while reading one record; the reader adds file and line. */
export class RecordProblem extends Error {
  constructor(readonly field: string | null, readonly problem: string) {
    super(field ? `${field}: ${problem}` : problem);
  }
}
