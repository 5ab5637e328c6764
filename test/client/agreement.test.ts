import {describe, expect, it} from "vitest";
import {defaultJudge, pText, raterChoices, sameRater, sameRaterText, startingRaters, trustSummary} from "../../src/client/agreement.js";
import {agreementTable, differenceView, HUMANS, pairInstances, type PairedInstance, type RaterScore} from "../../src/lib/agreement.js";
import {differenceCounts, differenceHistogram, halfPointBins} from "../../src/components/histogram.js";

describe("sameRater", () => {
  it("is true only when A and B name the same rater", () => {
    expect(sameRater({rater: "gpt-4"}, {rater: "gpt-4"})).toBe(true);
    expect(sameRater({rater: "gpt-4"}, {rater: "annotator-01"})).toBe(false);
    expect(sameRater({rater: "annotator-01"}, HUMANS)).toBe(false);
    expect(sameRater(null, {rater: "gpt-4"})).toBe(false);
    expect(sameRaterText({rater: "gpt-4"})).toBe("A and B are the same rater (gpt-4): every score would be compared with itself. Choose a different rater B.");
  });
});

describe("startingRaters", () => {
  const rater = (name: string, kind: string, instances: number) => ({rater: name, rater_kind: kind, instances});
  const start = (raters: ReturnType<typeof rater>[]) => {
    const data = {raters, humans: raters.filter((r) => r.rater_kind === "human").length};
    const choices = raterChoices(data);
    const {a, b} = startingRaters(choices, defaultJudge(data));
    // The menus compare by identity: the starting values are the menus' own entries.
    expect(a === null || choices.a.includes(a)).toBe(true);
    expect(b === null || choices.b.includes(b)).toBe(true);
    return [a, b];
  };

  it("starts on the LLM with the most scores (ties by name) against the mean of the annotators", () => {
    expect(start([rater("h1", "human", 9), rater("judge-b", "llm", 5), rater("judge-a", "llm", 5), rater("small", "llm", 2)])).toEqual([{rater: "judge-a"}, HUMANS]);
  });

  it("with no annotators, against the next rater; with no LLM, a human annotator against the others; with nobody, nothing", () => {
    expect(start([rater("judge-a", "llm", 5), rater("judge-b", "llm", 3)])).toEqual([{rater: "judge-a"}, {rater: "judge-b"}]);
    expect(start([rater("h2", "human", 3), rater("h1", "human", 3)])).toEqual([{rater: "h1"}, HUMANS]);
    expect(start([])).toEqual([null, null]);
  });
});

describe("pText", () => {
  it("prints an underflowed p as a bound, like the CLI", () => {
    expect([pText(0), pText(NaN), pText(0.0123), pText(2.04e-26)]).toEqual(["< 1e-300", "n/a", "0.012", "2.0e-26"]);
  });
});

describe("trustSummary", () => {
  it("judges dimensions by their own r, never by the pooled row", () => {
    const row = (e: string, d: string, rater: string, kind: string, value: number): RaterScore =>
      ({episode_id: e, agent: 1, dimension: d, rater, rater_kind: kind, value, lo: 0, hi: 10, played_by: "model"});
    const rows = [[1, 2], [4, 3], [6, 7], [9, 9]].flatMap(([j, h], i) => [row(`e${i}`, "goal", "judge", "llm", j!), row(`e${i}`, "goal", "h", "human", h!)]);
    const table = agreementTable(pairInstances(rows, {rater: "judge"}, HUMANS), ["goal"]);
    const lines = trustSummary(table, {a: {rater: "judge"}, b: HUMANS});
    expect(lines.find((l) => l.key === "trusted")!.text).toMatch(/^judge can stand in for the mean of human annotators on GOAL \(r = 0\.9\d, n = 4\)\.$/);
  });
});

describe("halfPointBins", () => {
  it("counts differences in bins half a point wide centred on multiples of 0.5, as Vega's bin {step 0.5, anchor 0.25}", () => {
    // −1 → [−1.25, −0.75); −0.3 → [−0.75, −0.25); 0, 0.2, −0.25 → [−0.25, 0.25); 0.25 → [0.25, 0.75); 2 → [1.75, 2.25).
    expect(halfPointBins([0, 0.2, -0.25, 0.25, -0.3, -1, 2])).toEqual([
      {from: -1.25, to: -0.75, instances: 1},
      {from: -0.75, to: -0.25, instances: 1},
      {from: -0.25, to: 0.25, instances: 3},
      {from: 0.25, to: 0.75, instances: 1},
      {from: 1.75, to: 2.25, instances: 1},
    ]);
  });

  it("gives one bar when every difference is equal (A's scores equal B's), with no bin transform left for Vega", () => {
    expect(halfPointBins(new Array(1176).fill(0))).toEqual([{from: -0.25, to: 0.25, instances: 1176}]);
    const spec = JSON.stringify(differenceHistogram(differenceCounts([0, 0, 0]), {title: "t", bias: 0, spread: null, width: 600, xTitle: "x"}));
    expect(spec).not.toContain('"bin":{');
  });
});

describe("differenceView at 100k episodes", () => {
  it("gathers 500,000 differences over all dimensions without overflowing the call stack, each A − B", () => {
    // One dimension's worth of instances at 100k episodes and more: the page once spread them into push(...).
    const instances = Array.from({length: 500_000}, (_, i): PairedInstance => ({
      episode_id: `e${i}`, agent: 1, dimension: "goal", lo: 0, hi: 10, played_by: "m", judge: i % 11, humans: [5], other: 5,
    }) as PairedInstance);
    const {diffs, spread} = differenceView(instances, "all", "dimension");
    expect(diffs.length).toBe(500_000);
    expect([diffs[0], diffs[6], diffs[10]]).toEqual([-5, 1, 5]);
    expect(spread).toBeNull();
  });
});

