// The page's columnar agreement engine against the library the CLI uses
// (pairInstances → agreementTable → kappaAmongAllAnnotators, differenceView):
// the same numbers, to the last bit, on the bundled samples and on 10k random
// instances, for every rater A, several B, k and both bases.

import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {AGREEMENT_COLUMNS_SQL, AGREEMENT_ROWS_SQL} from "../../loaders/queries/agreement.js";
import {rows} from "../../loaders/store/db.js";
import {columnsFromCodes, columnsFromScores, type CodedScores} from "../../src/client/agreement-columns.js";
import {AgreementEngine, STEP, type AgreementView} from "../../src/client/agreement-engine.js";
import {parseSummary, summaryJson, type AgreementSummary} from "../../src/client/agreement.js";
import {differenceCounts} from "../../src/components/histogram.js";
import {agreementTable, differenceView, HUMANS, kappaAmongAllAnnotators, pairInstances, type RaterChoice, type RaterScore, type SpreadBasis} from "../../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {REPO} from "../helpers/fixtures.js";
import {tempStore} from "../helpers/store.js";

const KEYS = SOTOPIA_DIMENSIONS.map((d) => d.key);

/** Where `actual` differs from `expected`: numbers in any bit (Object.is: NaN matches NaN), anything else when not equal. */
function differencesOf(actual: unknown, expected: unknown, where: string, out: string[] = []): string[] {
  if (typeof expected === "number") {
    const same = typeof actual === "number" && (Number.isNaN(expected) ? Number.isNaN(actual) : Object.is(actual, expected));
    if (!same) out.push(`${where}: ${String(actual)} vs ${expected}`);
  } else if (expected === null || typeof expected !== "object") {
    if (actual !== expected) out.push(`${where}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`);
  } else if (actual === null || typeof actual !== "object") {
    out.push(`${where}: ${JSON.stringify(actual)} vs an object`);
  } else {
    const keys = Object.keys(expected);
    const extra = Object.keys(actual).filter((k) => !keys.includes(k));
    if (extra.length || Object.keys(actual).length !== keys.length) out.push(`${where}: keys ${Object.keys(actual).join(",")} vs ${keys.join(",")}`);
    for (const key of keys) differencesOf((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${where}.${key}`, out);
  }
  return out;
}

const expectSame = (actual: unknown, expected: unknown, where: string) => expect(differencesOf(actual, expected, where).slice(0, 5)).toEqual([]);

/** What the library gives for these options, shaped as the engine's view. */
function libraryView(scores: readonly RaterScore[], {a, b, bins, basis}: {a: RaterChoice; b: RaterChoice; bins: number; basis: SpreadBasis}): AgreementView {
  const instances = pairInstances(scores, a, b);
  const table = kappaAmongAllAnnotators(agreementTable(instances, KEYS, {bins, basis}), scores, KEYS, {bins, basis});
  const differences: AgreementView["differences"] = {};
  for (const key of [...KEYS, "all"]) {
    const {diffs, spread} = differenceView(instances, key, basis);
    differences[key] = {...differenceCounts(diffs), spread};
  }
  return {table, instances: instances.length, episodes: new Set(instances.map((i) => i.episode_id)).size, differences};
}

/** Compares engine and library over every named rater as A against the humans, each other named rater and (for two of them) the humans as A. */
function compareAll(scores: readonly RaterScore[], options: {bins: number[]; maxB?: number}): number {
  const engine = new AgreementEngine(columnsFromScores(scores), KEYS);
  const raters = [...new Set(scores.map((s) => s.rater))];
  let compared = 0;
  const choices: RaterChoice[] = [HUMANS, ...raters.map((rater) => ({rater}))];
  for (const a of choices) {
    const bs = choices.filter((b) => JSON.stringify(b) !== JSON.stringify(a)).slice(0, options.maxB ?? Infinity);
    for (const b of bs) {
      for (const bins of options.bins) {
        for (const basis of ["dimension", "annotators"] as const) {
          const where = `A=${JSON.stringify(a)} B=${JSON.stringify(b)} k=${bins} ${basis}`;
          expectSame(engine.view({a, b, bins, basis}), libraryView(scores, {a, b, bins, basis}), where);
          compared++;
        }
      }
    }
  }
  return compared;
}

/** A seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * About 10k instances (715 episodes × 2 agents × 7 dimensions): a judge on
 * all, a second LLM on half, four annotators each on a random share (so
 * instances have 0 to 4 of them), half-point averages among the scores, and
 * people playing one agent in five.
 */
function randomScores(seed: number): RaterScore[] {
  const next = random(seed);
  const out: RaterScore[] = [];
  const score = (lo: number, hi: number) => {
    const v = lo + Math.floor(next() * (hi - lo + 1));
    return next() < 0.1 && v < hi ? v + 0.5 : v;
  };
  for (let e = 0; e < 715; e++) {
    const episode_id = `ep-${String(e).padStart(4, "0")}`;
    for (const agent of [1, 2]) {
      const played_by = next() < 0.2 ? "human" : "model";
      for (const d of SOTOPIA_DIMENSIONS) {
        const row = (rater: string, rater_kind: string, value: number): RaterScore =>
          ({episode_id, agent, dimension: d.key, rater, rater_kind, value, lo: d.lo, hi: d.hi, played_by});
        // Rows in the SQL's order: by rater name within an instance.
        const rated: RaterScore[] = [];
        for (const h of ["annotator-1", "annotator-2", "annotator-3", "annotator-4"]) if (next() < 0.55) rated.push(row(h, "human", score(d.lo, d.hi)));
        rated.push(row("gpt-4", "llm", score(d.lo, d.hi)));
        if (e % 2 === 0) rated.push(row("llama", "llm", d.key === "secret" ? 0 : score(d.lo, d.hi)));
        out.push(...rated.sort((x, y) => (x.rater < y.rater ? -1 : 1)));
      }
    }
  }
  return out;
}

describe("AgreementEngine gives the library's numbers", () => {
  it("on the bundled samples (232 episodes, 2,842 human scores), for every rater as A", async () => {
    const store = await tempStore();
    const samples = join(REPO, "data", "samples", "sotopia");
    await importFiles(store, "sotopia", [join(samples, "episodes.jsonl")]);
    await importFiles(store, "sotopia-ratings", [join(samples, "human_ratings.csv")]);
    const scores = await rows<RaterScore>(store.conn, AGREEMENT_ROWS_SQL);
    expect(scores.length).toBeGreaterThan(2842);
    expect(compareAll(scores, {bins: [5, 3], maxB: 3})).toBeGreaterThan(40);

    // The page's path: the numbered rows the loader ships (AGREEMENT_COLUMNS_SQL), decoded by code, give the same view.
    type Coded = {[K in keyof CodedScores]: number} & {rater: string; dimension: string; lo: number; hi: number};
    const coded = await rows<Coded>(store.conn, AGREEMENT_COLUMNS_SQL);
    expect(coded.length).toBe(scores.length);
    const raters: string[] = [];
    const dimensions: {key: string; lo: number; hi: number}[] = [];
    for (const r of coded) {
      raters[r.rater_code] = r.rater;
      dimensions[r.dimension_code] = {key: r.dimension, lo: r.lo, hi: r.hi};
    }
    const column = (name: keyof CodedScores) => coded.map((r) => r[name]);
    const columns = columnsFromCodes({instance: column("instance"), episode: column("episode"), dimension_code: column("dimension_code"),
      played_human: column("played_human"), rater_code: column("rater_code"), human: column("human"), value: column("value")}, raters, dimensions);
    const engine = new AgreementEngine(columns, KEYS);
    for (const options of [{a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"}, {a: {rater: "annotator-03"}, b: {rater: "gpt-4"}, bins: 4, basis: "annotators"}] as const) {
      expectSame(engine.view(options), libraryView(scores, options), `coded ${JSON.stringify(options)}`);
    }
  }, 120_000);

  it("on 10k random instances with 0–4 annotators each, half-point scores and human-played agents", () => {
    const scores = randomScores(18);
    const instances = new Set(scores.map((s) => `${s.episode_id}/${s.agent}/${s.dimension}`)).size;
    expect(instances).toBe(715 * 2 * 7);
    // 7 choices of A (the humans, the judges, each annotator) × 2 of B × 2 k × 2 bases.
    expect(compareAll(scores, {bins: [5, 11], maxB: 2})).toBe(7 * 2 * 2 * 2);
  }, 120_000);

  it("on one dimension only, where the pooled rows keep their correlations (one dimension pooled is no pooling)", () => {
    const scores = randomScores(5).filter((s) => s.dimension === "goal");
    const engine = new AgreementEngine(columnsFromScores(scores), KEYS);
    for (const options of [{a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"}, {a: {rater: "annotator-2"}, b: {rater: "llama"}, bins: 3, basis: "annotators"}] as const) {
      const view = engine.view(options);
      const pooled = view.table.filter((r) => r.dimension === "all");
      expect(pooled.map((r) => r.played_by)).toEqual(["all", "model", "human"]);
      expect(pooled.every((r) => r.pearson !== null && r.spearman !== null && r.pearson.n === r.n)).toBe(true);
      expectSame(view, libraryView(scores, options), `goal only ${JSON.stringify(options)}`);
    }
  });

  it("keeps the library's order of instances and of an instance's raters when the rows come shuffled", () => {
    const scores = randomScores(7).slice(0, 3000);
    const shuffled = scores.map((s, i) => ({s, k: (i * 7919) % scores.length})).sort((x, y) => x.k - y.k).map((x) => x.s);
    const engine = new AgreementEngine(columnsFromScores(shuffled), KEYS);
    const options = {a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"} as const;
    expectSame(engine.view(options), libraryView(shuffled, options), "shuffled");
  });
});

describe("AgreementEngine.prefetch", () => {
  it("computes ahead, one view a call, every other k and basis and every other rater A and B, and the views it kept are the library's", () => {
    const scores = randomScores(11).slice(0, 4000);
    const engine = new AgreementEngine(columnsFromScores(scores), KEYS);
    const start = {a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"} as const;
    engine.view(start);
    // Six raters (annotator-1 … 4, gpt-4, llama): 19 other (k, basis), 5 other B (the named raters but gpt-4), 5 other A (all but gpt-4).
    expect(engine.neighbours(start).length).toBe(19 + 5 + 5);
    // The other basis, then the raters next to A and B in the menus (A: gpt-4, llama, …; B: the humans, gpt-4 = A skipped, llama, …), then k nearest first.
    expect(engine.neighbours(start).slice(0, 5)).toEqual([{...start, basis: "annotators"}, {...start, a: {rater: "llama"}}, {...start, b: {rater: "llama"}}, {...start, bins: 4}, {...start, bins: 6}]);
    // Then the other raters, LLM raters first as the menus list them: B = an annotator, after every k on both bases.
    expect(engine.neighbours(start)[21]).toEqual({...start, b: {rater: expect.stringMatching(/^annotator-/)}});
    let steps = 0;
    while (engine.prefetch(start)) steps++;
    expect(steps).toBe(19 + 5 + 5);
    const kept = [{...start, bins: 3}, {...start, bins: 11, basis: "annotators"}, {...start, a: {rater: "annotator-2"}}, {...start, b: {rater: "llama"}}] as const;
    for (const options of kept) {
      expect(engine.ready(options)).toBe(true);
      expectSame(engine.view(options), libraryView(scores, options), `prefetched ${JSON.stringify(options)}`);
    }
    expect(engine.ready({...start, a: {rater: "annotator-2"}, bins: 3})).toBe(false);
  });

  it("computes ahead in small steps that a request can come between, and both views are the library's", () => {
    const scores = randomScores(11).slice(0, 4000);
    const engine = new AgreementEngine(columnsFromScores(scores), KEYS);
    const start = {a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"} as const;
    engine.view(start);
    // The other basis: the annotators' scores, gpt-4's, the pairing, then its five parts (sums, correlations, ranges, kappa, within) and the histograms.
    const taken: unknown[] = [];
    for (let step = engine.prefetchStep(start); ; step = engine.prefetchStep(start)) {
      taken.push(step);
      if (step !== STEP) break;
    }
    expect(taken).toEqual([...Array<string>(8).fill(STEP), {...start, basis: "annotators"}]);
    // Next, A = llama: four steps in (its scores and the pairing begun), a request for another view comes and is answered first.
    for (let step = 0; step < 4; step++) expect(engine.prefetchStep(start)).toBe(STEP);
    expect(engine.ready({...start, a: {rater: "llama"}})).toBe(false);
    const asked = {...start, b: {rater: "annotator-3"}, bins: 4} as const;
    expectSame(engine.view(asked), libraryView(scores, asked), "asked between steps");
    let finished: unknown = STEP;
    while (finished === STEP) finished = engine.prefetchStep(start);
    expect(finished).toEqual({...start, a: {rater: "llama"}});
    expectSame(engine.view({...start, a: {rater: "llama"}}), libraryView(scores, {...start, a: {rater: "llama"}}), "finished after the request");
  });

  it("leaves out A = B: the page shows no numbers for it", () => {
    const engine = new AgreementEngine(columnsFromScores(randomScores(11).slice(0, 4000)), KEYS);
    const options = {a: {rater: "annotator-1"}, b: {rater: "gpt-4"}, bins: 5, basis: "dimension"} as const;
    const same = engine.neighbours(options).filter((o) => o.a !== HUMANS && o.b !== HUMANS && o.a.rater === o.b.rater);
    expect(same).toEqual([]);
    // B: the humans and four named raters (not gpt-4, not annotator-1); A: four (not annotator-1, not gpt-4).
    expect(engine.neighbours(options).length).toBe(19 + 5 + 4);
  });
});

describe("columnsFromCodes", () => {
  const coded = (rater_code: number[]): CodedScores => ({
    instance: [0, 0, 1], episode: [0, 0, 0], dimension_code: [0, 0, 0], played_human: [0, 0, 0], rater_code, human: [1, 0, 1], value: [3, 4, 5],
  });

  it("groups rows by instance in rater order, whatever order the file holds them in", () => {
    const columns = columnsFromCodes({...coded([1, 0, 1]), instance: [1, 0, 0], value: [5, 4, 3], human: [1, 0, 1]}, ["llm", "h"], [{key: "goal", lo: 0, hi: 10}]);
    expect([...columns.rowStart]).toEqual([0, 2, 3]);
    expect([...columns.rater]).toEqual([0, 1, 1]);
    expect([...columns.value]).toEqual([4, 3, 5]);
  });

  it("refuses a code the summary does not name, with the file, the row and the column", () => {
    expect(() => columnsFromCodes(coded([0, 2, 0]), ["h", "llm"], [{key: "goal", lo: 0, hi: 10}])).toThrow(
      "agreement-rows.parquet, row 2: rater_code 2 is not below the 2 raters the summary names; the site's agreement files come from different stores: rebuild the site");
  });
});

describe("the summary's JSON", () => {
  it("keeps NaN and infinities (the table's n/a cells), and leaves a rater named NaN a name", () => {
    const summary = {raters: [{rater: "NaN", rater_kind: "llm", instances: 1}], humans: 0, view: {x: NaN, y: [Infinity, -Infinity, 0.1]}} as unknown as AgreementSummary;
    const back = parseSummary(summaryJson(summary)) as unknown as {raters: {rater: string}[]; view: {x: number; y: number[]}};
    expect(back.raters[0]!.rater).toBe("NaN");
    expect(back.view.x).toBeNaN();
    expect(back.view.y).toEqual([Infinity, -Infinity, 0.1]);
  });
});
