import {describe, expect, it} from "vitest";
import {refusedText} from "../../src/components/checked-input.js";
import {countDigits, STAGE_PARTS, stageChart} from "../../src/components/hsii-views.js";
import {hsiiByModel, type HsiiCaseRow} from "../../src/lib/hsii.js";
import {vegaWarnings} from "../helpers/vega-warnings.js";

describe("refusedText", () => {
  it("names the allowed values and the value still in effect", () => {
    expect(refusedText("-3", 1, {name: "α", min: 0, max: 2, step: 0.1})).toBe('α must be 0 to 2 in steps of 0.1; "-3" is not, so α = 1 is still in effect.');
    expect(refusedText("0", 128, {name: "N∞", min: 1, max: 1024, step: 1})).toBe('N∞ must be a whole number from 1 to 1024; "0" is not, so N∞ = 128 is still in effect.');
    expect(refusedText("", 0.7, {name: "s", min: 0.05, max: 1})).toBe("s must be 0.05 to 1; an empty box is not, so s = 0.7 is still in effect.");
  });
});

describe("countDigits", () => {
  it("gives a column the decimals its counts need, the same for every row", () => {
    expect(countDigits([24, 46, 0])).toBe(0);
    expect(countDigits([24, 46.5])).toBe(1);
    expect(countDigits([24, 46.5, 12.25])).toBe(2);
    expect(countDigits([1 / 3])).toBe(2);
  });

  it("needs quarters for n3 under the mean policy: a win and a tie over the two orders score 0.75", () => {
    const row = (episode_id: string, s3_forward: string, s3_swapped: string): HsiiCaseRow => ({
      episode_id, model: "m", case_id: episode_id, cluster: null, topic: null, cot: false, parsed: true, target_correct: true,
      logged_parsed: null, parser_parsed: true, logged_target: null, parser_target: "Ada", parse_route: "json",
      rater: "judge", s3_forward, s3_swapped, s4_forward: null, s4_swapped: null,
    } as unknown as HsiiCaseRow);
    const [mean] = hsiiByModel([row("a", "win", "tie"), row("b", "win", "win")], {rater: "judge", policy: "mean"});
    // (1 + 0.5)/2 + (1 + 1)/2 = 1.75.
    expect(mean!.n3).toBe(1.75);
    expect(countDigits([mean!.n3, 2])).toBe(2);
    const [strict] = hsiiByModel([row("a", "win", "tie"), row("b", "win", "win")], {rater: "judge", policy: "strict"});
    expect(strict!.n3).toBe(1);
  });
});

describe("stageChart", () => {
  // n4 > n3, as in the samples' qwen2.5-7b row: stage 4 is no narrowing of stage 3.
  // 30 of the 34 judged at stage 3 and 28 at stage 4: r3 and r4 are over those, and the chart says so.
  const row = {model: "qwen2.5-7b", n: 120, n1: 86, n2: 34, n3: 18.25, n4: 19.25, judged3: 30, judged4: 28} as never;

  it("draws stages 1–2 as a narrowing and stages 3–4 as win scores beside their common base n2", () => {
    const spec = stageChart([row], {width: 1072, policy: "mean"}) as unknown as {title: string; data: {values: {part: string; stage: string; value: number}[]}};
    const part = (p: string) => spec.data.values.filter((v) => v.part === p).map((v) => [v.stage, v.value]);
    expect(part(STAGE_PARTS.passing)).toEqual([["n: cases", 120], ["n1: parsed", 86], ["n2: right target", 34]]);
    // The whole n2 bar was labelled "n2: judged"; the cases judged at each stage are bars of their own.
    expect(part(STAGE_PARTS.wins)).toEqual([["n2: right target", 34], ["judged at stage 3", 30], ["n3: stage-3 wins", 18.25], ["judged at stage 4", 28], ["n4: stage-4 wins", 19.25]]);
    expect(spec.title).not.toMatch(/funnel/i);
    expect(spec.title).toContain("of the n2, those judged at stages 3 and 4 and their win scores (mean policy)");
  });

  it("draws with no Vega warning: each part its own faceted chart with its stages given, so no union of independent scales across sources", async () => {
    const other = {model: "gpt-4", n: 120, n1: 100, n2: 60, n3: 30, n4: 28, judged3: 60, judged4: 55} as never;
    expect(await vegaWarnings(stageChart([row, other], {width: 1072, policy: "mean"}))).toEqual([]);
  });

  it("gives each part only its own stages: the funnel's three, then n2 with each stage's judged cases and win score", () => {
    const spec = stageChart([row], {width: 1072, policy: "mean"}) as unknown as {hconcat: {title: {text: string}; spec: {encoding: {y: {scale: {domain: string[]}}}}}[]};
    expect(spec.hconcat.map((p) => [p.title.text, p.spec.encoding.y.scale.domain])).toEqual([
      [STAGE_PARTS.passing, ["n: cases", "n1: parsed", "n2: right target"]],
      [STAGE_PARTS.wins, ["n2: right target", "judged at stage 3", "n3: stage-3 wins", "judged at stage 4", "n4: stage-4 wins"]],
    ]);
  });
});
