// An error a user can act on because it says where: which file, which line (or
// CSV row), which field, and what was expected there.

export class LocatedError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly field: string | null,
    readonly problem: string,
  ) {
    super(`${file}${line !== null ? `:${line}` : ""}: ${field ? `${field}: ` : ""}${problem}`);
    this.name = "LocatedError";
  }
}
