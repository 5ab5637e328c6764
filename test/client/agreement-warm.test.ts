// The worker's warm-up: the likely changes computed over a small slice of the
// rows before anything is computed ahead, so that a change the worker has not
// computed yet runs compiled code; a request that comes meanwhile goes first.

import {afterEach, describe, expect, it, vi} from "vitest";
import {columnsFromScores} from "../../src/client/agreement-columns.js";
import {AgreementEngine, STEP} from "../../src/client/agreement-engine.js";
import {leadingInstances, warmOptions} from "../../src/client/agreement-warm.js";
import {JOBS, serve, useColumns, type WorkerReply, type WorkerRequest} from "../../src/client/agreement-worker.js";
import {agreementTable, HUMANS, kappaAmongAllAnnotators, pairInstances} from "../../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {sixtyEpisodeScores} from "../helpers/agreement-scores.js";

const KEYS = SOTOPIA_DIMENSIONS.map((d) => d.key);
const START = {a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"} as const;

const scores = sixtyEpisodeScores;

describe("leadingInstances", () => {
  it("takes the first instances and their rows as views of the same memory", () => {
    const columns = columnsFromScores(scores());
    const slice = leadingInstances(columns, 14);
    // Episode 0, both agents, seven dimensions: annotators 2+3+2+2+2+3+2 = 16 per agent, and the two LLMs' 7 each.
    expect(slice.rowStart.length).toBe(15);
    expect(slice.value.length).toBe(2 * (16 + 14));
    expect(slice.rater.length).toBe(60);
    expect(slice.episode.length).toBe(14);
    expect(Array.from(slice.episode)).toEqual(Array<number>(14).fill(0));
    expect(slice.value.buffer).toBe(columns.value.buffer);
    // More than the store holds: the whole of it.
    expect(leadingInstances(columns, 1_000_000).rowStart.length).toBe(841);
  });
});

describe("warmOptions", () => {
  it("lists the start, the other basis, another k, then an annotator and an LLM as A and as B", () => {
    const engine = new AgreementEngine(columnsFromScores(scores()), KEYS);
    const annotator = engine.namedRaters()[2]!;
    expect(annotator).toMatch(/^annotator-/);
    expect(warmOptions(engine, START)).toEqual([
      START,
      {...START, basis: "annotators"},
      {...START, bins: 4},
      {...START, a: {rater: annotator}},
      {...START, b: {rater: annotator}},
      {...START, a: {rater: "llama"}},
      {...START, b: {rater: "llama"}},
    ]);
  });
});

describe("AgreementEngine.likelyChanges", () => {
  it("computes the menu's first annotator as A right after the first neighbour when the worker asks, and its view is the library's", () => {
    const rows = scores();
    const engine = new AgreementEngine(columnsFromScores(rows), KEYS);
    const annotator = engine.namedRaters()[2]!;
    expect(engine.likelyChanges(START)).toEqual([{...START, a: {rater: annotator}}]);
    // An annotator as A already: nothing to move.
    expect(engine.likelyChanges({...START, a: {rater: annotator}})).toEqual([]);
    engine.view(START);
    engine.countAnnotatorsKappa(5);
    const finished: unknown[] = [];
    for (let step = engine.prefetchStep(START, engine.likelyChanges(START)); finished.length < 3; step = engine.prefetchStep(START, engine.likelyChanges(START))) {
      if (step !== STEP) finished.push(step);
    }
    expect(finished).toEqual([{...START, basis: "annotators"}, {...START, a: {rater: annotator}}, {...START, a: {rater: "llama"}}]);
    const asked = {...START, a: {rater: annotator}} as const;
    const library = kappaAmongAllAnnotators(agreementTable(pairInstances(rows, asked.a, asked.b), KEYS, {bins: 5, basis: "dimension"}), rows, KEYS, {bins: 5, basis: "dimension"});
    const got = engine.view(asked).table;
    expect(got.map((r) => [r.dimension, r.played_by, r.n])).toEqual(library.map((r) => [r.dimension, r.played_by, r.n]));
    for (const [i, row] of library.entries()) {
      for (const field of ["pearson", "spearman"] as const) expect(Object.is(got[i]![field]?.r ?? null, row[field]?.r ?? null)).toBe(true);
      expect(Object.is(got[i]!.kappaHumans.kappa, row.kappaHumans.kappa)).toBe(true);
      expect(Object.is(got[i]!.withinOneSd, row.withinOneSd)).toBe(true);
    }
  });
});

describe("the worker's warm-up", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A worker scope served in this thread: its replies in order. */
  function served(warm: {above: number; instances: number}) {
    const replies: WorkerReply[] = [];
    const scope: {postMessage(m: WorkerReply): void; onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null} = {postMessage: (m) => replies.push(m), onmessage: null};
    const columns = columnsFromScores(scores());
    serve(scope, {...JOBS, load: ((params: {warm: typeof START}) => useColumns(columns, params.warm)) as never}, warm);
    const send = (request: WorkerRequest) => scope.onmessage!({data: request} as MessageEvent<WorkerRequest>);
    const kinds = () => replies.map((r) => ("id" in r ? `${r.type} ${r.id}` : r.type));
    return {replies, send, kinds};
  }

  it("warms up before computing ahead, one view per turn, and answers a request that comes in the middle before going on", async () => {
    vi.useFakeTimers();
    const {replies, send, kinds} = served({above: 0, instances: 200});
    send({id: 0, job: "load", params: {warm: START}});
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds()).toEqual(["result 0"]);
    // One turn: the first step of the warm-up (the start over 200 instances), no more.
    await vi.advanceTimersToNextTimerAsync();
    expect(kinds()).toEqual(["result 0"]);
    const asked = {...START, a: {rater: "annotator-2"}} as const;
    send({id: 1, job: "view", params: asked});
    for (let turn = 0; turn < 200 && !kinds().some((k) => k.startsWith("ahead")); turn++) await vi.advanceTimersToNextTimerAsync();
    const order = kinds();
    // The request first, then the rest of the warm-up, then the views ahead.
    expect(order.slice(0, 4)).toEqual(["result 0", "result 1", "warmed", "ahead"]);
    const rows = scores();
    const library = kappaAmongAllAnnotators(agreementTable(pairInstances(rows, asked.a, asked.b), KEYS, {bins: 5, basis: "dimension"}), rows, KEYS, {bins: 5, basis: "dimension"});
    const answer = replies[1] as {value: {table: {n: number; kappaHumans: {kappa: number}}[]}};
    expect(answer.value.table.map((r) => r.n)).toEqual(library.map((r) => r.n));
    for (const [i, row] of library.entries()) expect(Object.is(answer.value.table[i]!.kappaHumans.kappa, row.kappaHumans.kappa)).toBe(true);
    // The first view ahead is the start's first neighbour, the other basis, computed on the rows themselves.
    expect((replies[3] as {key: string}).key).toContain("annotators");
  });

  it("does not warm up a store of no more instances than the threshold: the first message after the load is a view ahead", async () => {
    vi.useFakeTimers();
    const {send, kinds} = served({above: 840, instances: 200});
    send({id: 0, job: "load", params: {warm: START}});
    for (let turn = 0; turn < 200 && !kinds().some((k) => k.startsWith("ahead")); turn++) await vi.advanceTimersToNextTimerAsync();
    expect(kinds().slice(0, 2)).toEqual(["result 0", "ahead"]);
    expect(kinds()).not.toContain("warmed");
  });
});
