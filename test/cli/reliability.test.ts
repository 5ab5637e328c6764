// `sociometer report reliability`: the real Sotopia-π annotations (against an
// independent NumPy computation), and a small store with a judge, through the
// command line with its flags and formats.

import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {getReport} from "../../loaders/cli/reports.js";
import {render} from "../../loaders/cli/output.js";
import {importFiles} from "../../loaders/import/session.js";
import {iccAll} from "../../src/lib/icc.js";
import {pearson} from "../../src/lib/inference.js";
import {cli} from "../helpers/cli.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {describeWithFixtures} from "../helpers/fixtures.js";
import {tempSotopiaPiStore, tempStore, writeFile} from "../helpers/store.js";


// NumPy 2 on the exported ratings (repeated responses averaged): α interval in its pairwise
// form, ICC(2,1) on the items with two annotators (columns by annotator name), Gwet's AC1
// and Fleiss' κ on 5 equal-width bins; then the items and the ICC's items.
const NUMPY: Record<string, [alpha: number, icc: number, ac1: number, fleiss: number, items: number, iccItems: number]> = {
  believability: [0.26533645533410266, 0.2783944632050555, 0.3422998226708498, 0.08166996800243778, 294, 292],
  relationship: [0.4644098621054812, 0.4710461891888756, 0.25893428402746593, 0.0805968547662345, 294, 292],
  knowledge: [-0.10086023916483433, -0.06460372449056771, 0.47672535153310014, -0.04089818558107597, 294, 292],
  secret: [-0.005517542781442453, -0.006196232469364806, 0.9829210519818695, -0.0065046217048980014, 294, 292],
  social_rules: [0.1327044609790632, 0.15422947750775798, 0.8220460168420735, 0.04056391345494865, 294, 292],
  financial_and_material_benefits: [0.16974160535500882, 0.1691522643744492, 0.5719483263729733, 0.05874686574775812, 294, 292],
  goal: [0.7086964500257947, 0.7102910706938921, 0.42871380975672396, 0.3509141596066276, 294, 292],
};

describeWithFixtures("report reliability on the real Sotopia-π annotations", () => {
  it("shows alpha, ICC and AC1 among the human annotators per dimension, as NumPy computes them, with seeded intervals", async () => {
    const store = await tempSotopiaPiStore();
    const report = await getReport("reliability").run(store, {reliability: {resamples: "200", seed: "5", cluster: "scenario"}});
    expect(report.title).toBe("Reliability among the human annotators, per dimension");
    expect(report.rows.map((r) => r.dimension)).toEqual(Object.keys(NUMPY));
    for (const row of report.rows) {
      const [alpha, icc, ac1, fleiss, items, iccItems] = NUMPY[row.dimension as string];
      expect(row.comparison).toBe("among annotators");
      expect(row.alpha as number, row.dimension as string).toBeCloseTo(alpha, 12);
      expect(row.icc as number, row.dimension as string).toBeCloseTo(icc, 12);
      expect(row.ac1 as number, row.dimension as string).toBeCloseTo(ac1, 12);
      expect(row.fleiss as number, row.dimension as string).toBeCloseTo(fleiss, 12);
      expect([row.n, row.icc_items, row.icc_left_out]).toEqual([items, iccItems, items - iccItems]);
      for (const s of ["alpha", "icc", "ac1"]) {
        expect(row[`${s}_lo`] as number).toBeLessThanOrEqual(row[s] as number);
        expect(row[`${s}_hi`] as number).toBeGreaterThanOrEqual(row[s] as number);
      }
    }
    // 154 episodes, 147 of them with two or more annotators, in 14 scenarios.
    expect(report.notes).toContain("intervals (*_lo, *_hi): 95% percentile bootstrap over scenarios (clustered), 200 resamples, seed 5 (--resamples, --seed, --interval percentile|bca, --cluster scenario)");
    // The note names the form the values are (the default two-way one) and the one-way form that fits the design, never the other way round.
    const iccNote = report.notes.find((n) => n.startsWith("icc among annotators"));
    expect(iccNote).toContain("icc among annotators: ICC(2,1): two-way random, absolute agreement, single rater (McGraw–Wong ICC(A,1)), as --icc chooses");
    expect(iccNote).toContain("a one-way design: --icc 1,1 fits it, the values here are ICC(2,1)); left out: believability 2 of 294 (ICC on 292 items with 2 annotators)");
    const again = await getReport("reliability").run(store, {reliability: {resamples: "200", seed: "5", cluster: "scenario"}});
    expect(again.rows).toEqual(report.rows);
  });
});

// Four episodes, two agents: judge-x (the dump's LLM rater) and two annotators score GOAL.
const JUDGE_GOAL = [[7, 3], [9, 2], [4, 6], [8, 1]];
const HUMANS_GOAL = [[[6, 8], [2, 4]], [[9, 9], [1, 3]], [[5, 3], [7, 7]], [[7, 9], [0, 2]]];

async function judgedStore() {
  const store = await tempStore();
  const episodes = JUDGE_GOAL.map(([a1, a2], e) => dumpRecord(`ep-${e}`, {
    raw_rewards: [[1, {believability: 8, relationship: 2, knowledge: 3, secret: 0, social_rules: 0, financial_and_material_benefits: 1, goal: a1, overall_score: 1}],
      [1, {believability: 8, relationship: 2, knowledge: 3, secret: 0, social_rules: 0, financial_and_material_benefits: 1, goal: a2, overall_score: 1}]],
  }));
  await importFiles(store, "sotopia", [writeFile(store.dir, "e.jsonl", jsonl(episodes))]);
  const csv = "episode_id,agent,dimension,rater,value\n" + HUMANS_GOAL.flatMap((agents, e) =>
    agents.flatMap((scores, a) => scores.map((v, h) => `ep-${e},${a + 1},goal,h${h + 1},${v}`))).join("\n") + "\n";
  await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "h.csv", csv)]);
  return store;
}

describe("report reliability with a judge", () => {
  it("puts the judge panel side by side with the annotators, the ICC form and adjustment as chosen", async () => {
    const store = await judgedStore();
    const report = await getReport("reliability").run(store, {raters: ["judge-x", "h1"], reliability: {icc: "3,1", adjust: "none", resamples: "50", seed: "2"}});
    const goal = report.rows.filter((r) => r.dimension === "goal");
    expect(goal.map((r) => [r.comparison, r.a, r.n, r.episodes])).toEqual([
      ["A vs mean of human annotators", "judge-x", 8, 4], ["A vs mean of human annotators", "h1", 8, 4], ["among annotators", "2 annotators", 8, 4]]);
    // ICC(3,1) of the judge against the mean of h1 and h2, the same as the library on the pairs written out.
    const mean = HUMANS_GOAL.flatMap((agents) => agents.map(([x, y]) => (x + y) / 2));
    const pairs = JUDGE_GOAL.flat().map((j, i) => [j, mean[i]]);
    expect(goal[0].icc).toBe(iccAll(pairs).find((i) => i.form === "3,1")!.value);
    // With --adjust none the adjusted p is Pearson's own.
    expect(goal[0].r_p_adj).toBe(pearson(JUDGE_GOAL.flat(), mean).p);
    expect(report.notes).toContain("p-values adjusted over the table's family (each statistic's tests across raters and dimensions): none (raw p-values) (--adjust holm|bh|none)");
    expect(report.notes.some((n) => n.startsWith("icc: ICC(3,1): two-way mixed, consistency"))).toBe(true);
    expect(report.notes.some((n) => /^judge-x can(not)? stand in for mean of human annotators on goal: ICC\(3,1\) /.test(n))).toBe(true);
    const csv = render(report, "csv").split("\n");
    expect(csv[0]).toBe("comparison,a,dimension,n,episodes,alpha,alpha_lo,alpha_hi,icc,icc_lo,icc_hi,icc_f_lo,icc_f_hi,icc_p,icc_p_adj,kappa,kappa_lo,kappa_hi," +
      "ac1,ac1_lo,ac1_hi,r,r_lo,r_hi,r_p_adj,rho,rho_lo,rho_hi,ba_bias,ba_lower,ba_upper,ba_slope,ba_slope_p_adj,fleiss,randolph,po,icc_items,icc_left_out,stands_in");
    // Bland–Altman bias of judge-x on GOAL: mean of judge − mean of the annotators' means.
    const bias = JUDGE_GOAL.flat().reduce((s, j, i) => s + j - mean[i], 0) / 8;
    expect(goal[0].ba_bias).toBeCloseTo(bias, 14);
  });

  it("takes its options on the command line and refuses bad ones by name", async () => {
    const store = await judgedStore();
    store.close();
    const db = join(store.dir, "test.duckdb");
    const ok = await cli(["report", "reliability", "--db", db, "--format", "json", "--rater", "judge-x", "--resamples", "40", "--seed", "9", "--interval", "bca", "--metric", "ordinal", "--kappa-weights", "linear"]);
    expect(ok.stderr).toBe("");
    const json = JSON.parse(ok.stdout) as {notes: string[]; rows: Record<string, unknown>[]};
    expect(json.notes.some((n) => n.startsWith("intervals (*_lo, *_hi): 95% BCa bootstrap over episodes, 40 resamples, seed 9"))).toBe(true);
    expect(json.notes).toContain("alpha: Krippendorff's α, ordinal metric (--metric nominal|ordinal|interval|ratio); for A vs B over B's raters with A added (each annotator, not their mean)");
    expect(json.rows.filter((r) => r.a === "judge-x")).toHaveLength(7);
    for (const [flag, value, message] of [["--icc", "4,1", 'unknown ICC form "4,1": choose one of 1,1, 2,1, 3,1, 1,k, 2,k, 3,k'],
      ["--resamples", "0", "--resamples must be a whole number from 1 to 1000000, not 0"], ["--interval", "normal", "--interval must be percentile or bca, not normal"],
      ["--adjust", "bonferroni", 'unknown multiplicity adjustment "bonferroni": choose one of holm, bh, none']]) {
      const bad = await cli(["report", "reliability", "--db", db, flag, value]);
      expect(bad.code, flag).toBe(2);
      expect(bad.stderr, flag).toContain(message);
    }
  });
});
