import {describe, expect, it} from "vitest";
import {HSII_CASES, HSII_MODELS, hsiiSamples} from "../../scripts/samples/hsii.js";
import {episodeFromHsii} from "../../loaders/import/hsii.js";
import type {JsonObject} from "../../loaders/import/validate.js";

describe("hsiiSamples", () => {
  const records = hsiiSamples(42) as JsonObject[];

  it("is deterministic, with every model run with and without COT on every case, all valid input", () => {
    expect(JSON.stringify(hsiiSamples(42))).toBe(JSON.stringify(records));
    expect(records).toHaveLength(Object.keys(HSII_MODELS).length * 2 * HSII_CASES);
    const episodes = records.map((r) => episodeFromHsii(r));
    expect(new Set(episodes.map((e) => e.episode_id)).size).toBe(records.length);
    expect(records.every((r) => r.synthetic === true)).toBe(true);
  });

  it("includes responses the parser must reject, and COT rounds only on COT runs", () => {
    const cases = records.map((r) => episodeFromHsii(r).tables!.hsii_cases![0]!);
    const failed = cases.filter((c) => !c.parser_parsed).length / cases.length;
    expect(failed).toBeGreaterThan(0.2);
    expect(failed).toBeLessThan(0.5);
    expect(records.filter((r) => r.cot).every((r) => Array.isArray(r.cot_runs))).toBe(true);
    expect(records.filter((r) => !r.cot).some((r) => r.cot_runs !== undefined)).toBe(false);
  });
});
