// What the engine computes ahead first, and in slices short enough that a
// request coming meanwhile waits for one slice: kappa among every annotator,
// which every view needs (whatever A is) and which took 120 ms cold at 100k
// in one step.

import {describe, expect, it} from "vitest";
import {AmongAnnotators} from "../../src/client/agreement-among.js";
import {columnsFromScores} from "../../src/client/agreement-columns.js";
import {AgreementEngine, STEP} from "../../src/client/agreement-engine.js";
import {HumanScores, humanRows} from "../../src/client/agreement-humans.js";
import {agreementTable, HUMANS, kappaAmongAllAnnotators, pairInstances, type RaterChoice, type RaterScore} from "../../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {sixtyEpisodeScores} from "../helpers/agreement-scores.js";

const KEYS = SOTOPIA_DIMENSIONS.map((d) => d.key);

const scores = sixtyEpisodeScores;

describe("AmongAnnotators.countSome", () => {
  it("counts the annotators' instances a slice at a time, and kappa is the one pass's to the last bit", () => {
    const columns = columnsFromScores(scores());
    const engine = new AgreementEngine(columns, KEYS);
    const at = {dimension: columns.dimension, playedByHuman: columns.playedByHuman, listed: engine.listed, L: KEYS.length};
    const humans = HumanScores.all(humanRows(columns));
    const whole = new AmongAnnotators(humans, at);
    const sliced = new AmongAnnotators(humans, at);
    // 60 × 2 × 7 instances, each scored by two or three annotators (of three consecutive numbers at most one is a multiple of 4).
    expect(humans.present.length).toBe(840);
    const answers: boolean[] = [];
    for (let done = false; !done; ) answers.push((done = sliced.countSome(100)));
    expect(answers).toEqual([...Array<boolean>(8).fill(false), true]);
    expect(sliced.ready(5)).toBe(false);
    for (const bins of [2, 5, 11]) {
      const a = whole.kappa(bins);
      const b = sliced.kappa(bins);
      expect(b.length).toBe(a.length);
      for (let cell = 0; cell < a.length; cell++) {
        expect(Object.is(b[cell]!.kappa, a[cell]!.kappa) || (Number.isNaN(a[cell]!.kappa) && Number.isNaN(b[cell]!.kappa))).toBe(true);
        expect(b[cell]!.items).toBe(a[cell]!.items);
        expect(sliced.has(cell)).toBe(whole.has(cell));
      }
    }
    expect(sliced.ready(5)).toBe(true);
  });
});

describe("AgreementEngine.prefetchStep", () => {
  it("counts kappa among every annotator with the first view, whatever A is, and an annotator's view as A then is the library's", () => {
    const rows = scores();
    const engine = new AgreementEngine(columnsFromScores(rows), KEYS);
    const start = {a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"} as const;
    engine.view(start);
    let step = engine.prefetchStep(start);
    while (step === STEP) step = engine.prefetchStep(start);
    expect(step).toEqual({...start, basis: "annotators"});
    // The starting view (an LLM as A) shows the annotators' kappa over all their instances: counted with it.
    expect(engine.annotatorsKappaReady(5)).toBe(true);
    expect(engine.ready({...start, a: {rater: "llama"}})).toBe(false);
    const asked = {...start, a: {rater: "annotator-2"}} as const;
    const table = kappaAmongAllAnnotators(agreementTable(pairInstances(rows, asked.a, asked.b), KEYS, {bins: 5, basis: "dimension"}), rows, KEYS, {bins: 5, basis: "dimension"});
    const got = engine.view(asked).table;
    expect(got.map((r) => [r.dimension, r.played_by, r.n])).toEqual(table.map((r) => [r.dimension, r.played_by, r.n]));
    for (const [i, row] of table.entries()) {
      for (const field of ["kappaHumans", "kappaWithJudge"] as const) {
        const x = got[i]![field].kappa;
        const y = row[field].kappa;
        expect(Object.is(x, y) || (Number.isNaN(x) && Number.isNaN(y))).toBe(true);
      }
    }
    // The other views come after, as before: the next one finished is A = llama.
    let finished: unknown = STEP;
    while (finished === STEP) finished = engine.prefetchStep(start);
    expect(finished).toEqual({...start, a: {rater: "llama"}});
  });
});

/** The paths where two values differ (numbers by Object.is, NaN equal to NaN). */
function differences(x: unknown, y: unknown, at = "", out: string[] = []): string[] {
  if (typeof y === "number") {
    if (!(typeof x === "number" && (Object.is(x, y) || (Number.isNaN(x) && Number.isNaN(y))))) out.push(`${at}: ${String(x)} ≠ ${y}`);
  } else if (y !== null && typeof y === "object") {
    for (const key of Object.keys(y)) differences((x as Record<string, unknown>)?.[key], (y as Record<string, unknown>)[key], `${at}.${key}`, out);
  } else if (x !== y) out.push(`${at}: ${String(x)} ≠ ${String(y)}`);
  return out;
}

function libraryTable(rows: readonly RaterScore[], options: {a: RaterChoice; b: RaterChoice; bins: number; basis: "dimension" | "annotators"}) {
  const table = agreementTable(pairInstances(rows, options.a, options.b), KEYS, {bins: options.bins, basis: options.basis});
  return kappaAmongAllAnnotators(table, rows, KEYS, {bins: options.bins, basis: options.basis});
}

describe("AgreementEngine.countAnnotatorsKappa", () => {
  it("counts kappa among every annotator at once (the worker's start), so computing ahead goes from the first neighbour straight to the next view", () => {
    const rows = scores();
    const engine = new AgreementEngine(columnsFromScores(rows), KEYS);
    const start = {a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"} as const;
    engine.view(start);
    engine.countAnnotatorsKappa(5);
    expect(engine.annotatorsKappaReady(5)).toBe(true);
    expect(engine.annotatorsKappaReady(3)).toBe(false);
    const finished: unknown[] = [];
    for (let step = engine.prefetchStep(start); finished.length < 2; step = engine.prefetchStep(start)) if (step !== STEP) finished.push(step);
    expect(finished).toEqual([{...start, basis: "annotators"}, {...start, a: {rater: "llama"}}]);
    const asked = {...start, a: {rater: "annotator-1"}} as const;
    expect(differences(engine.view(asked).table, libraryTable(rows, asked))).toEqual([]);
  });
});

describe("AgreementEngine.prefetchStep, a pairing's pass in slices", () => {
  it("walks a pairing's candidates a slice per step; a request for another pairing in the middle leaves it to resume, one for the same finishes it; every table is the library's to the last bit", () => {
    const rows = scores();
    const engine = new AgreementEngine(columnsFromScores(rows), KEYS, {pass: 50, among: 100});
    const start = {a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"} as const;
    engine.view(start);
    let step = engine.prefetchStep(start);
    while (step === STEP) step = engine.prefetchStep(start);
    expect(step).toEqual({...start, basis: "annotators"});
    // Kappa among every annotator came with the starting view, which shows it whatever A is.
    expect(engine.annotatorsKappaReady(5)).toBe(true);
    // A = llama: llama's side (the rater next to A and to B in the menus), the annotators' scores, llama's (kept: a lookup), the pass begun, then 4 of its 17 slices of 50 (llama scored all 840 instances).
    for (let s = 0; s < 8; s++) expect(engine.prefetchStep(start)).toBe(STEP);
    const other = {...start, b: {rater: "annotator-3"}, bins: 4} as const;
    expect(differences(engine.view(other).table, libraryTable(rows, other))).toEqual([]);
    for (let s = 0; s < 3; s++) expect(engine.prefetchStep(start)).toBe(STEP);
    const same = {...start, a: {rater: "llama"}, bins: 3} as const;
    expect(differences(engine.view(same).table, libraryTable(rows, same))).toEqual([]);
    // The pairing is made: the rest of A = llama's view takes its parts (sums, correlations, ranges, kappa, within, histograms), not the other 9 slices.
    const taken: unknown[] = [];
    for (let s = engine.prefetchStep(start); ; s = engine.prefetchStep(start)) {
      taken.push(s);
      if (s !== STEP) break;
    }
    expect(taken).toEqual([...Array<string>(6).fill(STEP), {...start, a: {rater: "llama"}}]);
    expect(differences(engine.view({...start, a: {rater: "llama"}}).table, libraryTable(rows, {...start, a: {rater: "llama"}}))).toEqual([]);
  });

  it("gives the one pass's pairing when every pass runs in slices of one candidate, for every pair of raters", () => {
    const rows = scores();
    const choices: RaterChoice[] = [HUMANS, {rater: "gpt-4"}, {rater: "llama"}, {rater: "annotator-1"}, {rater: "annotator-2"}];
    const start = {a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"} as const;
    for (const a of choices.slice(1)) {
      for (const b of choices) {
        if (a === b) continue;
        const options = {a, b, bins: 5, basis: "annotators"} as const;
        const engine = new AgreementEngine(columnsFromScores(rows), KEYS, {pass: 1, among: 1});
        engine.view(start);
        // Computed ahead as the first neighbour of the same raters on the other basis: every step of its pass one candidate long.
        const focus = {...options, basis: "dimension"} as const;
        let steps = 0;
        while (!engine.ready(options)) {
          expect(engine.prefetchStep(focus)).not.toBeNull();
          steps++;
        }
        // At least one step per candidate (the named side with fewer instances: an annotator's 630 of 840, gpt-4's or llama's 840), unless the starting view made the pairing.
        if (JSON.stringify([a, b]) !== JSON.stringify([start.a, start.b])) expect(steps).toBeGreaterThan(630);
        expect(differences(engine.view(options).table, libraryTable(rows, options)), JSON.stringify(options)).toEqual([]);
      }
    }
  });
});

describe("AgreementEngine.prefetchStep, the sides of the raters next in the menus", () => {
  /** The first scores the engine holds, by rater name, oldest used first. */
  const sides = (engine: AgreementEngine): Map<string, unknown> =>
    new Map(Array.from((engine as unknown as {raterScores: Map<number, unknown>}).raterScores, ([code, side]) => [engine.columns.raters[code]!, side]));
  const sidesRead = (engine: AgreementEngine): string[] => Array.from(sides(engine).keys());

  it("reads the side of the rater next to A and to B in the menus in one step right after the first neighbour, before the likely changes, and not again once its views are computed", () => {
    const rows = scores();
    const engine = new AgreementEngine(columnsFromScores(rows), KEYS);
    const start = {a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"} as const;
    engine.view(start);
    engine.countAnnotatorsKappa(5);
    const first = engine.likelyChanges(start);
    let step = engine.prefetchStep(start, first);
    while (step === STEP) step = engine.prefetchStep(start, first);
    expect(step).toEqual({...start, basis: "annotators"});
    expect(sidesRead(engine)).toEqual(["gpt-4"]);
    // Next to gpt-4 in the menus: llama as A, and llama as B (gpt-4, the next entry after the humans, is A).
    expect(engine.prefetchStep(start, first)).toBe(STEP);
    expect(sidesRead(engine)).toEqual(["gpt-4", "llama"]);
    // Then the likely change (the first annotator as A), A = llama, B = llama: no other step reads llama's side again.
    const finished: unknown[] = [];
    while (finished.length < 4) {
      const next = engine.prefetchStep(start, first);
      if (next !== STEP) finished.push(next);
    }
    expect(finished).toEqual([first[0], {...start, a: {rater: "llama"}}, {...start, b: {rater: "llama"}}, {...start, bins: 4}]);
    const asked = {...start, b: {rater: "llama"}} as const;
    expect(differences(engine.view(asked).table, libraryTable(rows, asked))).toEqual([]);
  });

  it("answers B → the next LLM asked right after that step from the side it read, with the library's numbers, and goes on ahead after it", () => {
    const rows = scores();
    const engine = new AgreementEngine(columnsFromScores(rows), KEYS, {pass: 50, among: 100});
    const start = {a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"} as const;
    engine.view(start);
    engine.countAnnotatorsKappa(5);
    const first = engine.likelyChanges(start);
    while (engine.prefetchStep(start, first) === STEP);
    expect(engine.prefetchStep(start, first)).toBe(STEP);
    // Into the first annotator's view as A: a few of its steps, then the request comes between two of them.
    for (let s = 0; s < 3; s++) expect(engine.prefetchStep(start, first)).toBe(STEP);
    const asked = {...start, b: {rater: "llama"}} as const;
    expect(engine.ready(asked)).toBe(false);
    const read = sides(engine).get("llama");
    expect(read).toBeDefined();
    expect(differences(engine.view(asked).table, libraryTable(rows, asked))).toEqual([]);
    // llama's side was used as read, not read again.
    expect(sides(engine).get("llama")).toBe(read);
    let next = engine.prefetchStep(start, first);
    while (next === STEP) next = engine.prefetchStep(start, first);
    expect(next).toEqual(first[0]);
    expect(differences(engine.view(first[0]!).table, libraryTable(rows, first[0]!))).toEqual([]);
  });
});
