// Import errors a user can act on: which file, which line (or CSV row), which field, what was expected.

export class ImportError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly field: string | null,
    readonly problem: string,
  ) {
    super(`${file}${line !== null ? `:${line}` : ""}: ${field ? `${field}: ` : ""}${problem}`);
    this.name = "ImportError";
  }
}

/** A record-level problem, raised while reading one record; the reader adds file and line. */
export class RecordProblem extends Error {
  constructor(readonly field: string | null, readonly problem: string) {
    super(field ? `${field}: ${problem}` : problem);
  }
}
