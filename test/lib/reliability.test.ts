import {describe, expect, it} from "vitest";
import {HUMANS, type RaterScore} from "../../src/lib/agreement.js";
import {blandAltman} from "../../src/lib/bland-altman.js";
import {iccAll} from "../../src/lib/icc.js";
import {pearson} from "../../src/lib/inference.js";
import {cohenKappa, multiRaterAgreement} from "../../src/lib/kappa.js";
import {krippendorffAlpha} from "../../src/lib/krippendorff.js";
import {reliabilityReport, reliabilityThresholdsText, reliabilityVerdicts} from "../../src/lib/reliability.js";
import {SeededRandom} from "../../src/lib/resample.js";

const GOAL = [{key: "goal", lo: 0, hi: 10}];

/** 40 episodes, two agents each, GOAL scored by a judge and two or three of four annotators; scenario = episode mod 5. */
function sample(): RaterScore[] {
  const random = new SeededRandom(4);
  const rows: RaterScore[] = [];
  for (let e = 0; e < 40; e++) {
    for (const agent of [1, 2]) {
      const truth = random.nextIndex(11);
      const score = (spread: number) => Math.min(10, Math.max(0, truth + random.nextIndex(2 * spread + 1) - spread));
      const base = {episode_id: `ep-${String(e).padStart(2, "0")}`, agent, dimension: "goal", lo: 0, hi: 10, played_by: "model"};
      rows.push({...base, rater: "judge", rater_kind: "llm", value: score(2)});
      const annotators = e % 3 === 0 ? ["h1", "h2", "h3"] : e % 2 ? ["h1", "h2"] : ["h3", "h4"];
      for (const h of annotators) rows.push({...base, rater: h, rater_kind: "human", value: score(1)});
    }
  }
  return rows;
}

describe("reliabilityReport", () => {
  const rows = sample();
  const byItem = new Map<string, RaterScore[]>();
  for (const r of rows) byItem.set(`${r.episode_id}/${r.agent}`, [...(byItem.get(`${r.episode_id}/${r.agent}`) ?? []), r]);
  const items = [...byItem.values()];
  const judge = items.map((list) => list.find((r) => r.rater === "judge")!.value);
  const humans = items.map((list) => list.filter((r) => r.rater_kind === "human").map((r) => r.value));
  const mean = humans.map((h) => h.reduce((s, x) => s + x, 0) / h.length);
  const bin = (x: number) => Math.min(4, Math.floor(x / 2));

  it("puts the library's point estimates in each row, judge against the mean of the annotators", () => {
    const report = reliabilityReport(rows, {judges: ["judge"], dimensions: GOAL, resamples: 200, seed: 3});
    const [row] = report.judges;
    expect([row.a, row.b, row.dimension, row.n, row.episodes]).toEqual(["judge", "mean of human annotators", "goal", 80, 40]);
    expect(row.pearson.estimate).toBe(pearson(judge, mean).r);
    expect(row.alphaWithA.estimate).toBe(krippendorffAlpha(humans.map((h, i) => h.concat(judge[i])), "interval").alpha);
    expect(row.icc.value).toBe(iccAll(judge.map((j, i) => [j, mean[i]])).find((x) => x.form === "2,1")!.value);
    expect(row.kappa.estimate).toBe(cohenKappa(judge.map(bin), mean.map(bin), 5, "quadratic").kappa);
    expect(row.ac1.estimate).toBe(multiRaterAgreement(judge.map((j, i) => [bin(j), bin(mean[i])]), 5).gwetAc1);
    expect(row.blandAltman).toEqual(blandAltman(judge, mean));
    // Intervals: 200 resamples of 40 episodes, seed 3, percentile, around the estimate.
    for (const s of [row.pearson, row.spearman, row.alphaWithA, row.iccBootstrap, row.kappa, row.ac1]) {
      expect([s.resamples, s.seed, s.drawn, s.drawnCount, s.method]).toEqual([200, 3, "episodes", 40, "percentile"]);
      expect(s.lo).toBeLessThan(s.estimate);
      expect(s.hi).toBeGreaterThan(s.estimate);
    }
  });

  it("gives the annotators' own alpha, AC1 and an ICC on the items with the most common annotator count, saying how many were left out", () => {
    const report = reliabilityReport(rows, {judges: [], dimensions: GOAL, resamples: 50});
    const [row] = report.annotators;
    // Episodes 0, 3, …, 39 (14 of 40) have three annotators: 28 items; the other 52 have two.
    expect([row.items, row.annotators, row.iccRaters, row.iccItems, row.iccLeftOut]).toEqual([80, 4, 2, 52, 28]);
    expect(row.alpha.estimate).toBe(krippendorffAlpha(humans, "interval").alpha);
    const two = humans.filter((h) => h.length === 2);
    expect(row.icc!.value).toBe(iccAll(two).find((x) => x.form === "2,1")!.value);
    const agreement = multiRaterAgreement(humans.map((h) => h.map(bin)), 5);
    expect([row.ac1.estimate, row.fleissKappa, row.randolphKappa, row.pairwiseAgreement]).toEqual([agreement.gwetAc1, agreement.fleissKappa, agreement.randolphKappa, agreement.pairwiseAgreement]);
  });

  it("gives the same intervals for the same seed, other ones for another, and draws 5 scenarios when clustered", () => {
    const run = (seed: number, cluster = false) => reliabilityReport(rows, {
      judges: ["judge"], dimensions: GOAL, resamples: 100, seed, cluster,
      scenarioOf: new Map(Array.from({length: 40}, (_, e) => [`ep-${String(e).padStart(2, "0")}`, `s${e % 5}`])),
    }).judges[0];
    expect(run(8).iccBootstrap).toEqual(run(8).iccBootstrap);
    expect(run(9).iccBootstrap.lo).not.toBe(run(8).iccBootstrap.lo);
    expect([run(8, true).kappa.drawn, run(8, true).kappa.drawnCount]).toEqual(["clusters", 5]);
  });

  it("adjusts the p-values over the judge panel (Holm by default; none leaves them raw)", () => {
    const twoJudges = rows.concat(rows.filter((r) => r.rater === "judge").map((r) => ({...r, rater: "judge-2", value: 10 - r.value})));
    const holm = reliabilityReport(twoJudges, {judges: ["judge", "judge-2"], dimensions: GOAL, resamples: 20});
    const ps = holm.judges.map((j) => j.icc.p);
    const [small, large] = ps[0] < ps[1] ? [0, 1] : [1, 0];
    expect(holm.judges[small].iccPAdjusted).toBe(Math.min(1, 2 * ps[small]));
    expect(holm.judges[large].iccPAdjusted).toBe(Math.max(Math.min(1, 2 * ps[small]), ps[large]));
    const none = reliabilityReport(twoJudges, {judges: ["judge", "judge-2"], dimensions: GOAL, resamples: 20, adjust: "none"});
    expect(none.judges.map((j) => j.pearsonPAdjusted)).toEqual(none.judges.map((j) => j.pearsonP));
  });

  it("reports progress over every statistic's resamples, ending at the total", () => {
    const seen: [number, number][] = [];
    reliabilityReport(rows, {judges: ["judge"], dimensions: GOAL, resamples: 50, onProgress: (d, t) => seen.push([d, t])});
    // 50 resamples × (6 judge statistics: r, rho, alpha, ICC, kappa, AC1 + 3 annotator statistics).
    expect(seen.at(-1)).toEqual([450, 450]);
  });

  it("says by which thresholds the judge stands in, naming them", () => {
    const report = reliabilityReport(rows, {judges: ["judge"], dimensions: GOAL, resamples: 200});
    const [verdict] = reliabilityVerdicts(report);
    const j = report.judges[0];
    const a = report.annotators[0];
    expect(verdict.standsIn).toBe(j.iccBootstrap.lo >= 0.5 && j.alphaWithA.estimate >= a.alpha.estimate);
    expect(verdict.because).toBe(`ICC(2,1) ${j.icc.value.toFixed(2)} [${j.iccBootstrap.lo.toFixed(2)}, ${j.iccBootstrap.hi.toFixed(2)}] ${j.iccBootstrap.lo >= 0.5 ? "≥" : "<"} 0.5 at its lower bound; ` +
      `α with A ${j.alphaWithA.estimate.toFixed(2)} ${j.alphaWithA.estimate >= a.alpha.estimate ? "≥" : "<"} α among annotators ${a.alpha.estimate.toFixed(2)}`);
    expect(reliabilityThresholdsText(report)).toContain("at least 0.5 (Koo & Li 2016: below 0.5 is poor)");
    expect(reliabilityThresholdsText({options: {...report.options, against: {rater: "h1"}}})).toContain("at least 0.667 (Krippendorff 2004");
    expect(HUMANS).toBe("humans");
  });
});
