// Checking a reported number against the value it should be (METRICS.md § Reported-table audit).

export type RoundingVerdict = "exact" | "rounded" | "truncated" | "rounded-or-truncated" | "mismatch";

/** Digits after the decimal point in a reported number as written ("0.87" → 2). */
export const reportedDigits = (reported: string): number => (reported.includes(".") ? reported.split(".")[1]!.replace(/[^0-9]/g, "").length : 0);

/**
 * Whether `reported` (as written in the paper) is `value` rounded half away
 * from zero, or truncated toward zero, to the reported digits.
 */
export function roundingVerdict(value: number, reported: string): RoundingVerdict {
  const digits = reportedDigits(reported);
  const r = Number(reported);
  const scale = 10 ** digits;
  const eps = 1e-9;
  if (Math.abs(value - r) < eps) return "exact";
  const rounded = Math.sign(value) * Math.round(Math.abs(value) * scale + eps) / scale;
  const truncated = Math.sign(value) * Math.floor(Math.abs(value) * scale + eps) / scale;
  const byRounding = Math.abs(rounded - r) < eps;
  const byTruncation = Math.abs(truncated - r) < eps;
  return byRounding && byTruncation ? "rounded-or-truncated" : byRounding ? "rounded" : byTruncation ? "truncated" : "mismatch";
}
