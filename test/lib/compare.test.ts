import {describe, expect, it} from "vitest";
import {compareRuns, countedDefaultSides, defaultSides, defaultSidesFromCounts, onSide, pairingOf, parseSide, sideBySideHref, type CompareRow} from "../../src/lib/compare.js";

/** A row with every key null but those given. */
const row = (o: Partial<CompareRow> & Pick<CompareRow, "task" | "metric" | "value" | "model">): CompareRow => ({
  episode_id: `${o.model}-${o.task}`, instance: `${o.model}-${o.task}`, cluster: o.task, kind: "continuous",
  rater: null, run: null, source: null, setting: null, memory: null, cot: null, ...o,
});

/** Metric m scored by models x and y on tasks t1…t5, differences y − x given per task. */
function family(): CompareRow[] {
  const out: CompareRow[] = [];
  // goal: d = 1, 2, 0, 2, 1 (paired t p = 0.0326779…); rel: d = 1.5, −0.5, 2, 3, 4, −1 on t1…t6 (t6 only for this metric).
  const goal = [1, 2, 0, 2, 1];
  goal.forEach((d, i) => {
    out.push(row({task: `t${i + 1}`, metric: "goal", value: 5, model: "x"}));
    out.push(row({task: `t${i + 1}`, metric: "goal", value: 5 + d, model: "y"}));
  });
  const rel = [1.5, -0.5, 2, 3, 4, -1];
  rel.forEach((d, i) => {
    out.push(row({task: `t${i + 1}`, metric: "rel", value: 0, model: "x"}));
    out.push(row({task: `t${i + 1}`, metric: "rel", value: d, model: "y"}));
  });
  // A task only x played, and one only y played: unpaired, listed.
  out.push(row({task: "t9", metric: "goal", value: 3, model: "x"}));
  out.push(row({task: "t8", metric: "goal", value: 9, model: "y"}));
  return out;
}

describe("compareRuns", () => {
  it("names each step as it starts, and the bootstrap's resamples per group of metrics sharing their pairs", () => {
    const steps: string[] = [];
    compareRuns("sotopia", family(), {model: "x"}, {model: "y"}, {adjust: "holm", resamples: 4, seed: 3, onStep: (s) => steps.push(s)});
    // goal pairs t1…t5 and rel t1…t6: two groups, each bootstrapped on its own.
    const boot = (metric: string) => [0, 1, 2, 3, 4].map((done) => `Bootstrapping ${metric}: ${done} of 4 resamples…`);
    expect(steps).toEqual(["Testing 2 metrics…", ...boot("goal"), ...boot("rel")]);
  });

  it("tests each metric on its pairs and adjusts the family by Holm (and BH)", () => {
    const c = compareRuns("sotopia", family(), {model: "x"}, {model: "y"}, {adjust: "holm", resamples: 200, seed: 3});
    expect(c.pairing).toBe("task");
    expect(c.metrics.map((m) => [m.metric, m.nPaired, m.unpairedA, m.unpairedB])).toEqual([["goal", 5, 1, 1], ["rel", 6, 0, 0]]);
    const [goal, rel] = c.metrics;
    expect(goal.difference).toBeCloseTo(1.2, 12);
    expect(goal.meanA).toBe(5);
    expect(goal.meanB).toBeCloseTo(6.2, 12);
    expect(goal.p).toBeCloseTo(0.03267792333680301, 10);
    // rel: mean 9/6 = 1.5, sd² = (0 + 4 + 0.25 + 2.25 + 6.25 + 6.25)/5 = 3.8; t = 1.5/√(3.8/6) = 1.88484; p (5 df) from SciPy.
    expect(rel.difference).toBeCloseTo(1.5, 12);
    expect(rel.p).toBeCloseTo(0.11813972627642286, 10);
    expect(rel.pWilcoxon).toBeCloseTo(10 / 64, 12);
    // Holm over two: the smaller p doubled, the larger kept (it exceeds the doubled smaller).
    expect(goal.pAdjusted).toBeCloseTo(2 * goal.p, 12);
    expect(rel.pAdjusted).toBeCloseTo(rel.p, 12);
    const bh = compareRuns("sotopia", family(), {model: "x"}, {model: "y"}, {adjust: "bh", resamples: 200, seed: 3});
    // BH over two: the larger p stays, the smaller becomes min(2p, the larger).
    expect(bh.metrics[0].pAdjusted).toBeCloseTo(Math.min(2 * goal.p, rel.p), 12);
    expect(bh.metrics[1].pAdjusted).toBeCloseTo(rel.p, 12);
    expect(c.unpaired).toEqual([
      {metric: "goal", side: "A", item: "t9", episode: "x-t9"},
      {metric: "goal", side: "B", item: "t8", episode: "y-t8"},
    ]);
    expect(c.statement).toContain("paired by the same task (scenario and characters) with the same partner model in the same seat");
    expect(c.statement).toContain("Holm (family-wise error rate)");
  });

  it("lists the items that changed most both ways, with their episodes", () => {
    const c = compareRuns("sotopia", family(), {model: "x"}, {model: "y"}, {adjust: "holm", resamples: 50, changed: 1});
    expect(c.changed.map((x) => [x.metric, x.direction, x.item, x.difference])).toEqual([
      ["goal", "up", "t2", 2], // t2 and t4 both rise by 2: the first by key
      ["rel", "up", "t5", 4],
      ["rel", "down", "t6", -1],
    ]);
    expect(sideBySideHref(c.changed[0].episodeA, c.changed[0].episodeB)).toBe("episodes?episode=x-t2&vs=y-t2");
  });

  it("compares binary metrics with McNemar and Newcombe when every paired value is 0 or 1", () => {
    // 11 tasks: 2 only A succeeds, 9 only B, plus 30 both and 5 neither = the McNemar example, p = 134/2048.
    const rows: CompareRow[] = [];
    const add = (n: number, a: number, b: number) => {
      for (let i = 0; i < n; i++) {
        const task = `t${rows.length}`;
        rows.push(row({task, metric: "win", kind: "binary", value: a, model: "x"}), row({task, metric: "win", kind: "binary", value: b, model: "y"}));
      }
    };
    add(30, 1, 1);
    add(2, 1, 0);
    add(9, 0, 1);
    add(5, 0, 0);
    const [m] = compareRuns("hsii", rows, {model: "x"}, {model: "y"}, {adjust: "holm", resamples: 50}).metrics;
    expect(m.kind).toBe("binary");
    expect(m.nPaired).toBe(46);
    expect(m.difference).toBeCloseTo(7 / 46, 14);
    expect(m.p).toBeCloseTo(134 / 2048, 14);
    expect(m.test).toBe("exact McNemar (11 discordant pairs); Newcombe hybrid score interval (1998, method 10)");
  });

  it("averages a side's repeats of an item first, and a binary metric so averaged is compared as a score", () => {
    const rows = [
      row({task: "t1", metric: "win", kind: "binary", value: 1, model: "x", episode_id: "e1"}),
      row({task: "t1", metric: "win", kind: "binary", value: 0, model: "x", episode_id: "e2"}),
      row({task: "t1", metric: "win", kind: "binary", value: 1, model: "y"}),
      row({task: "t2", metric: "win", kind: "binary", value: 0, model: "x"}),
      row({task: "t2", metric: "win", kind: "binary", value: 1, model: "y"}),
    ];
    const c = compareRuns("hsii", rows, {model: "x"}, {model: "y"}, {adjust: "none", resamples: 50});
    expect(c.metrics[0].kind).toBe("continuous");
    expect(c.metrics[0].meanA).toBeCloseTo(0.25, 14);
    expect(c.averagedA).toBe(1);
    expect(c.notes[0]).toBe("items played more than once on a side are averaged first: 1 on A, 0 on B (counted over metrics)");
  });

  it("pairs two raters of the same episodes by episode, and refuses two equal sides", () => {
    expect(pairingOf({rater: "gpt-4"}, {rater: "humans"})).toBe("instance");
    expect(pairingOf({model: "a", rater: "r", run: "1"}, {model: "a", rater: "r", run: "2"})).toBe("instance");
    expect(pairingOf({model: "a"}, {model: "b", rater: "r"})).toBe("task");
    expect(() => compareRuns("sotopia", family(), {model: "x"}, {model: "x"}, {adjust: "holm"})).toThrow("sides A and B are the same (model=x)");
  });

  it("leaves out of a rater-against-rater comparison the metrics no rater gives: they would pair with themselves and enlarge the family", () => {
    // HSII-like: a parse outcome with no rater, and a win judged by r1 (never) and r2 (on all six cases).
    const rows: CompareRow[] = [];
    for (let i = 1; i <= 6; i++) rows.push(row({task: `c${i}`, instance: `e${i}`, metric: "parsed", kind: "binary", value: i === 3 ? 0 : 1, model: "m"}));
    for (const [rater, value] of [["r1", 0], ["r2", 1]] as const) {
      for (let i = 1; i <= 6; i++) rows.push(row({task: `c${i}`, instance: `e${i}`, metric: "win", kind: "binary", value, model: "m", rater}));
    }
    const c = compareRuns("hsii", rows, {rater: "r1"}, {rater: "r2"}, {adjust: "holm", resamples: 50, seed: 1});
    expect(c.pairing).toBe("instance");
    expect(c.metrics.map((m) => [m.metric, m.nPaired, m.unpairedA, m.unpairedB])).toEqual([["win", 6, 0, 0]]);
    // Six discordant pairs, all one way: exact McNemar p = 2 · 0.5⁶; a family of one leaves it as it is (with the self-paired parse, Holm doubled it).
    expect(c.metrics[0].p).toBe(0.03125);
    expect(c.metrics[0].pAdjusted).toBe(0.03125);
    expect(c.notes).toContain("left out: parsed, whose values name no rater, so both sides share them (each would pair with itself)");
    // Two models differ on a key the parse has: it stays in.
    const byModel = compareRuns("hsii", rows.concat(rows.map((r) => ({...r, model: "n"}))), {model: "m", rater: "r1"}, {model: "n", rater: "r2"}, {adjust: "holm", resamples: 50, seed: 1});
    expect(byModel.metrics.map((m) => [m.metric, m.nPaired])).toEqual([["parsed", 6], ["win", 6]]);
  });

  it("matches items on keys neither side names: a with-COT case pairs only with a with-COT case", () => {
    const rows = [
      row({task: "c1", metric: "win", kind: "binary", value: 1, model: "x", cot: "with"}),
      row({task: "c1", metric: "win", kind: "binary", value: 0, model: "x", cot: "without"}),
      row({task: "c1", metric: "win", kind: "binary", value: 1, model: "y", cot: "with"}),
    ];
    const c = compareRuns("hsii", rows, {model: "x"}, {model: "y"}, {adjust: "holm", resamples: 20});
    expect([c.metrics[0].nPaired, c.metrics[0].unpairedA, c.metrics[0].unpairedB]).toEqual([1, 1, 0]);
    expect(c.unpaired).toEqual([{metric: "win", side: "A", item: "c1 | cot without", episode: "x-c1"}]);
    expect(c.statement).toContain("and the same cot (named by neither side)");
  });

  it("compares every item as independent samples only when asked, and says so", () => {
    const c = compareRuns("sotopia", family(), {model: "x"}, {model: "y"}, {adjust: "holm", unpaired: true});
    expect(c.metrics[0].test).toMatch(/^unpaired: Welch t/);
    // goal: A has t1…t5 at 5 and t9 at 3; B has 6, 7, 5, 7, 6 and t8 at 9.
    expect(c.metrics[0].meanA).toBeCloseTo(28 / 6, 12);
    expect(c.metrics[0].meanB).toBeCloseTo(40 / 6, 12);
    expect(c.statement).toContain("UNPAIRED as asked");
  });
});

describe("sides", () => {
  it("reads KEY=VALUE and refuses keys the benchmark has not got", () => {
    expect(parseSide(["model=gpt-4", "rater=humans"], "sotopia", "A")).toEqual({model: "gpt-4", rater: "humans"});
    expect(() => parseSide(["memory=full"], "sotopia", "B")).toThrow('side B: sotopia has no key "memory"; its keys are model, rater, run, source');
    expect(() => parseSide(["gpt-4"], "sotopia", "A")).toThrow('side A: "gpt-4" is not KEY=VALUE');
  });

  it("lets a key that does not apply to a row (null) pass the filter", () => {
    const r = row({task: "c", metric: "stage1_parsed", value: 1, model: "x"});
    expect(onSide(r, {model: "x", rater: "gpt-4"})).toBe(true);
    expect(onSide(r, {model: "y"})).toBe(false);
  });

  it("defaults to the rater that scored the most episodes, and under it the two models that pair on the most items", () => {
    const rows = [
      row({task: "1", metric: "m", value: 1, model: "b", rater: "judge"}),
      row({task: "2", metric: "m", value: 1, model: "b", rater: "judge"}),
      row({task: "1", metric: "m", value: 1, model: "a", rater: "judge"}),
      row({task: "2", metric: "m", value: 1, model: "a", rater: "person"}),
      row({task: "1", metric: "m", value: 1, model: "c", rater: "judge"}),
    ];
    const d = defaultSides("sotopia", rows);
    expect([d.a, d.b]).toEqual([{model: "a", rater: "judge"}, {model: "b", rater: "judge"}]);
    // judge scored episodes 1, 2 of b, 1 of a and 1 of c (row() gives each task its own episode); a–b and a–c both pair once: a–b, the earlier places.
    expect(d.note).toBe("defaults: rated by judge, the rater that scored the most sotopia episodes (4); under it, the two models that pair on the most items (a: 2, b: 2 episodes): 1 item paired, summed over the metrics");
  });

  it("goes down the models and raters to the first comparison that pairs something", () => {
    // b and a (most episodes) share task 1 only under "person", whose 2 scores are fewer than judge's 5; c shares nothing.
    const rows = [
      row({task: "1", metric: "m", value: 1, model: "a", rater: "judge"}),
      row({task: "2", metric: "m", value: 1, model: "a", rater: "judge"}),
      row({task: "1", metric: "m", value: 2, model: "a", rater: "person"}),
      row({task: "3", metric: "m", value: 1, model: "b", rater: "judge"}),
      row({task: "4", metric: "m", value: 1, model: "b", rater: "judge"}),
      row({task: "1", metric: "m", value: 3, model: "b", rater: "person"}),
      row({task: "9", metric: "m", value: 1, model: "c", rater: "judge"}),
    ];
    const d = defaultSides("sotopia", rows);
    expect([d.a, d.b]).toEqual([{model: "b", rater: "person"}, {model: "a", rater: "person"}]);
    expect(d.note).toBe("defaults: rated by person, the rater that scored the most sotopia episodes (2) (judge scored more, 5, but no two models pair under it); under it, the two models that pair on the most items (b: 3, a: 2 episodes): 1 item paired, summed over the metrics");
    expect(compareRuns("sotopia", rows, d.a, d.b, {adjust: "none"}).metrics[0].nPaired).toBe(1);
    // Without person, a and b pair nothing; a and c neither; b and c neither: the two largest, and the note says so.
    const none = defaultSides("sotopia", rows.filter((r) => r.rater !== "person"));
    expect([none.a, none.b]).toEqual([{model: "a", rater: "judge"}, {model: "b", rater: "judge"}]);
    expect(none.note).toBe("defaults: the two models with the most sotopia episodes (a: 2, b: 2 episodes), rated by judge (the rater that scored the most episodes); no two models pair on any item under one rater, so nothing is tested");
  });

  it("counts pairs under the rater that scored the most episodes first, and under every rater only when no two models pair under it", async () => {
    const models = [{model: "a", n: 5}, {model: "b", n: 4}, {model: "c", n: 3}];
    const raters = [{rater: "judge", n: 9}, {rater: "person", n: 2}];
    const all = [{model_a: "a", model_b: "b", rater: "judge", pairs: 2}, {model_a: "a", model_b: "c", rater: "judge", pairs: 7},
      {model_a: "b", model_b: "c", rater: "person", pairs: 1}];
    const asked: (string | null)[] = [];
    const counter = (counts: typeof all) => async (only: readonly string[] | null, rater?: string) => {
      expect(only).toBeNull();
      asked.push(rater ?? null);
      return rater === undefined ? counts : counts.filter((c) => c.rater === rater);
    };
    const paired = await countedDefaultSides("sotopia", models, raters, counter(all));
    expect(asked).toEqual(["judge"]);
    // a–c pair on 7 items under judge, more than a–b's 2 though b has more episodes than c.
    expect([paired.defaults.a, paired.defaults.b, paired.defaults.pairs]).toEqual([{model: "a", rater: "judge"}, {model: "c", rater: "judge"}, 7]);
    expect(paired.defaults).toEqual(defaultSidesFromCounts("sotopia", models, raters, all));
    asked.length = 0;
    const apart = all.slice(2);
    const later = await countedDefaultSides("sotopia", models, raters, counter(apart));
    expect(asked).toEqual(["judge", null]);
    expect([later.defaults.a, later.defaults.b, later.defaults.pairs]).toEqual([{model: "b", rater: "person"}, {model: "c", rater: "person"}, 1]);
    expect(later.pairs).toEqual(apart);
    expect(later.defaults).toEqual(defaultSidesFromCounts("sotopia", models, raters, apart));
  });

  it("names the pooled annotators as such", () => {
    const d = defaultSidesFromCounts("sotopia", [{model: "a", n: 3}, {model: "b", n: 3}], [{rater: "humans", n: 6}, {rater: "rater-03", n: 2}],
      [{model_a: "a", model_b: "b", rater: "humans", pairs: 3}, {model_a: "a", model_b: "b", rater: "rater-03", pairs: 1}]);
    expect([d.a, d.b]).toEqual([{model: "a", rater: "humans"}, {model: "b", rater: "humans"}]);
    expect(d.note).toBe("defaults: rated by humans (the annotators pooled), the rater that scored the most sotopia episodes (6); under it, the two models that pair on the most items (a: 3, b: 3 episodes): 3 items paired, summed over the metrics");
  });

  it("takes a later model when the two largest share nothing, and counts rater-less rows under any rater", () => {
    const rows = [
      row({task: "1", metric: "m", value: 1, model: "a", rater: "judge"}),
      row({task: "2", metric: "m", value: 1, model: "a", rater: "judge"}),
      row({task: "3", metric: "m", value: 1, model: "b", rater: "judge"}),
      row({task: "4", metric: "m", value: 1, model: "b", rater: "judge"}),
      row({task: "1", metric: "parsed", value: 1, model: "c", rater: null}),
      row({task: "1", metric: "parsed", value: 0, model: "a", rater: null}),
    ];
    const d = defaultSides("hsii", rows);
    expect([d.a, d.b]).toEqual([{model: "a", rater: "judge"}, {model: "c", rater: "judge"}]);
    expect(d.note).toBe("defaults: rated by judge, the rater that scored the most hsii episodes (4); under it, the two models that pair on the most items (a: 2, c: 1 episodes): 1 item paired, summed over the metrics");
  });
});
