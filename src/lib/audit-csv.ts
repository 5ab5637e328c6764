// The audit CSV (docs/audit.md): one reported cell per row, with the formula
// it claims and its inputs, or a query over the store that gives them.
// Parsed here, in the library, so the page and `sociometer audit` read a file
// the same way and reject the same mistakes with the same file/line/field.

import {LocatedError} from "./located-error.js";
import {isPercent} from "./audit.js";
import {auditFormula, propagatedBound, type AuditFormula, type AuditInputs, type FormulaInput} from "./audit-formulas.js";

export interface AuditCell {
  /** 1-based line of the file the row starts on. */
  line: number;
  table: string;
  row: string;
  column: string;
  /** The value as the table prints it: "0.87", "57.94%". */
  reported: string;
  formula: string;
  /** Inputs written in the row (a query may add more). */
  inputs: AuditInputs;
  /** SQL over the store whose columns are inputs (CLI only). */
  query: string | null;
  /**
   * For cells whose inputs are themselves rounded: how far the recomputed value
   * can be from the paper's own, in the reported unit (points for a %). Stated
   * in the CSV, or propagated from the inputs' digits when the CSV says `auto`.
   */
  tolerance: number | null;
  /** Whether `tolerance` was propagated from the inputs' printed digits (`auto`) rather than stated. */
  toleranceAuto: boolean;
  /** Where the reported value comes from (paper, table). */
  source: string;
}

/** A problem a user can fix: which file, which line, which field, what was expected. */
export class AuditCsvError extends LocatedError {
  override name = "AuditCsvError";
}

export const REQUIRED_COLUMNS = ["table", "row", "column", "reported", "formula"] as const;
export const OPTIONAL_COLUMNS = ["inputs", "query", "tolerance", "source"] as const;
const KNOWN = new Set<string>([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);

/** RFC 4180 rows with the line each starts on; quoted fields may hold commas, quotes ("") and line breaks. */
export function csvRows(text: string, file: string): {line: number; fields: string[]}[] {
  const out: {line: number; fields: string[]}[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < text.length) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let value = "";
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new AuditCsvError(file, start, null, "a quoted field is never closed");
          if (text[i] === '"') {
            if (text[i + 1] !== '"') break;
            i++;
          } else if (text[i] === "\n") line++;
          value += text[i++];
        }
        i++;
        if (i < text.length && !",\r\n".includes(text[i]!)) throw new AuditCsvError(file, line, null, "text after a closing quote (write a quote inside a quoted field as \"\")");
      } else {
        while (i < text.length && !",\r\n".includes(text[i]!)) value += text[i++];
      }
      fields.push(value);
      if (text[i] !== ",") break;
      i++;
    }
    if (text[i] === "\r") i++;
    if (text[i] === "\n") i++;
    line++;
    if (!(fields.length === 1 && fields[0]!.trim() === "")) out.push({line: start, fields});
  }
  return out;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One input's numbers, checked against its kind; a problem as text. */
function inputValue(spec: FormulaInput, text: string): number | number[] | string {
  const parts = text.trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return `${spec.name}: no value`;
  const numbers = parts.map(Number);
  const bad = parts.find((p, k) => !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(p) || !Number.isFinite(numbers[k]));
  if (bad !== undefined) return `${spec.name}: ${JSON.stringify(bad)} is not a number`;
  if (spec.kind === "list") return numbers;
  if (numbers.length > 1) return `${spec.name}: expected one number, got ${numbers.length} (only a list input takes several)`;
  const x = numbers[0]!;
  if (spec.kind === "count" && !(Number.isInteger(x) && x >= 0)) return `${spec.name}: expected a whole number ≥ 0, got ${parts[0]}`;
  return x;
}

/** Parses the `inputs` field, "tp=48; fp=2" or "values=1.2 3.4 5.6; weights=10 5 5", against the formula's inputs. */
export function parseInputs(text: string, formula: AuditFormula): AuditInputs | string {
  const inputs: AuditInputs = {};
  for (const part of text.split(";").map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf("=");
    const name = eq < 0 ? part : part.slice(0, eq).trim();
    if (eq < 0 || !NAME.test(name)) return `${JSON.stringify(part)} is not name=value`;
    const spec = formula.inputs.find((s) => s.name === name);
    if (!spec) return `${name} is not an input of ${formula.name} (its inputs: ${formula.inputs.map((s) => s.name).join(", ")})`;
    if (name in inputs) return `${name} is given twice`;
    const value = inputValue(spec, part.slice(eq + 1));
    if (typeof value === "string") return value;
    inputs[name] = value;
  }
  return inputs;
}

/** Half a unit of the last digit a number is written with: "0.338" → 0.0005, "7.30" → 0.005, "10" → 0.5, "1.5e-3" → 0.00005. */
export function halfUnit(text: string): number {
  const [mantissa, exponent] = text.trim().toLowerCase().split("e");
  const digits = (mantissa!.includes(".") ? mantissa!.split(".")[1]!.length : 0) - (exponent ? Number(exponent) : 0);
  return digits >= 0 ? 0.5 / 10 ** digits : 0.5 * 10 ** -digits;
}

/** Each input's half-unit, shaped like the inputs, from the `inputs` field as written (already checked by parseInputs). */
function halfUnits(text: string): AuditInputs {
  const half: AuditInputs = {};
  for (const part of text.split(";").map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf("=");
    const numbers = part.slice(eq + 1).trim().split(/\s+/).map(halfUnit);
    half[part.slice(0, eq).trim()] = numbers.length === 1 ? numbers[0]! : numbers;
  }
  return half;
}

/** Whether `inputs` are complete and fit together for `formula`; a problem as text, or null. */
export function inputsProblem(formula: AuditFormula, inputs: AuditInputs): string | null {
  const missing = formula.inputs.filter((s) => !s.optional && !(s.name in inputs)).map((s) => s.name);
  if (missing.length) return `${formula.name} needs ${missing.join(", ")}`;
  for (const spec of formula.inputs) {
    const v = inputs[spec.name];
    if (v === undefined) continue;
    if (spec.kind === "list" && !Array.isArray(v)) return `${spec.name} must be a list of numbers`;
    if (spec.kind !== "list" && Array.isArray(v)) return `${spec.name} must be one number, got ${v.length}`;
    if (spec.kind === "list" && (v as number[]).length === 0) return `${spec.name} is an empty list`;
    if (spec.kind === "count" && !(Number.isInteger(v) && (v as number) >= 0)) return `${spec.name} must be a whole number ≥ 0, got ${v}`;
  }
  return formula.check?.(inputs) ?? null;
}

/** A reported value: a number as printed, optionally followed by %. */
function reportedProblem(text: string, formula: string): string | null {
  const number = text.trim().replace(/%$/, "").trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(number)) return `${JSON.stringify(text)} is not a number as printed (e.g. 0.87, -1.5 or 57.94%)`;
  if (formula === "share") {
    const x = Number(number);
    if (x < 0 || x > (isPercent(text) ? 100 : 1)) return `${JSON.stringify(text)} is not a share: write a share of 1 (0.5794) or a percentage (57.94%)`;
  }
  return null;
}

/** Reads audit CSV text; throws AuditCsvError naming file, line and field on the first bad row. */
export function parseAuditCsv(text: string, file: string): AuditCell[] {
  const rows = csvRows(text, file);
  if (!rows.length) throw new AuditCsvError(file, null, null, `empty file: expected a header with ${REQUIRED_COLUMNS.join(", ")}`);
  const [header, ...body] = rows;
  const names = header!.fields.map((f) => f.trim().toLowerCase());
  for (const [k, name] of names.entries()) {
    if (!KNOWN.has(name)) throw new AuditCsvError(file, header!.line, name || `column ${k + 1}`, `unknown column; columns are ${[...KNOWN].join(", ")}`);
    if (names.indexOf(name) !== k) throw new AuditCsvError(file, header!.line, name, "the column appears twice");
  }
  const absent = REQUIRED_COLUMNS.filter((c) => !names.includes(c));
  if (absent.length) throw new AuditCsvError(file, header!.line, absent[0]!, `missing column (required: ${REQUIRED_COLUMNS.join(", ")})`);
  if (!body.length) throw new AuditCsvError(file, null, null, "no cells: the file has a header and nothing else");

  const seen = new Map<string, number>();
  return body.map(({line, fields}) => {
    const fail = (field: string | null, problem: string): never => {
      throw new AuditCsvError(file, line, field, problem);
    };
    if (fields.length !== names.length) fail(null, `${fields.length} fields, but the header has ${names.length}`);
    const get = (name: string) => (names.includes(name) ? fields[names.indexOf(name)]!.trim() : "");
    for (const name of REQUIRED_COLUMNS) if (!get(name)) fail(name, "empty; every cell needs table, row, column, reported and formula");
    const formula = auditFormula(get("formula"));
    if (!formula) fail("formula", `unknown formula ${JSON.stringify(get("formula"))}; see docs/audit.md for the list`);
    const reportedIssue = reportedProblem(get("reported"), formula!.name);
    if (reportedIssue) fail("reported", reportedIssue);
    const inputs = parseInputs(get("inputs"), formula!);
    if (typeof inputs === "string") fail("inputs", inputs);
    const query = get("query") || null;
    // Without a query the row must be complete; with one, the query's columns are checked once it has run.
    if (!query) {
      const problem = inputsProblem(formula!, inputs as AuditInputs);
      if (problem) fail("inputs", problem);
    }
    let tolerance: number | null = null;
    const toleranceAuto = get("tolerance").toLowerCase() === "auto";
    if (toleranceAuto) {
      if (query) fail("tolerance", "auto derives the bound from the digits written in inputs, and a query's columns have none: state the bound as a number");
      // The bound is in the formula's unit (a share of 1); a reported % is compared in points.
      const half = halfUnits(get("inputs"));
      // A list input given as one number is still a list (inputsProblem accepted it as parsed).
      for (const spec of formula!.inputs) if (spec.kind === "list" && typeof half[spec.name] === "number") half[spec.name] = [half[spec.name] as number];
      tolerance = propagatedBound(formula!, inputs as AuditInputs, half) * (isPercent(get("reported")) ? 100 : 1);
    } else if (get("tolerance")) {
      tolerance = Number(get("tolerance"));
      if (!Number.isFinite(tolerance) || tolerance < 0) fail("tolerance", `expected a number ≥ 0 or auto, got ${JSON.stringify(get("tolerance"))}`);
    }
    const key = JSON.stringify([get("table"), get("row"), get("column"), formula!.name]);
    const earlier = seen.get(key);
    if (earlier !== undefined) fail(null, `repeats the cell (table, row, column, formula) of line ${earlier}`);
    seen.set(key, line);
    return {line, table: get("table"), row: get("row"), column: get("column"), reported: get("reported"), formula: formula!.name,
      inputs: inputs as AuditInputs, query, tolerance, toleranceAuto, source: get("source")};
  });
}
