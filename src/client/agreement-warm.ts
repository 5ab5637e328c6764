// Warming the agreement engine's code before the reader's first change. The
// first time V8 meets a pass over 1.4M instances it runs it unoptimized and
// compiles it on the way (the first annotator as A took 134 ms of CPU at
// 100k where the second took 70), so a change that is not computed ahead yet
// pays that compilation. Running the same code paths once over a small slice
// of the same columns (a few thousand instances: milliseconds) lets V8
// optimize them with the same types before the full-size work needs them.

import {HUMANS, type RaterChoice} from "../lib/agreement-labels.js";
import type {AgreementColumns} from "./agreement-columns.js";
import {AgreementEngine, STEP, type ViewOptions} from "./agreement-engine.js";

/**
 * Instances of the slice the warm-up computes over: enough for every code
 * path's loops to run hot. At 100k episodes (1.4M instances), in Node, the
 * first annotator as A after a warm-up on 2^16 instances took 33 ms of CPU
 * (134–143 without), on 2^11 98 ms; the warm-up itself 0.2–0.3 CPU-s.
 */
export const WARM_INSTANCES = 1 << 16;

/** Below this many instances the cold code costs little in all: the worker does not warm up. */
export const WARM_ABOVE = 4 * WARM_INSTANCES;

/** The first `instances` instances of `columns` and their rows, as columns of their own (views, no copies). */
export function leadingInstances(columns: AgreementColumns, instances: number): AgreementColumns {
  const n = Math.min(instances, columns.rowStart.length - 1);
  const rows = columns.rowStart[n]!;
  return {
    rowStart: columns.rowStart.subarray(0, n + 1),
    episode: columns.episode.subarray(0, n),
    dimension: columns.dimension.subarray(0, n),
    playedByHuman: columns.playedByHuman.subarray(0, n),
    rater: columns.rater.subarray(0, rows),
    human: columns.human.subarray(0, rows),
    value: columns.value.subarray(0, rows),
    raters: columns.raters,
    dimensions: columns.dimensions,
  };
}

/**
 * The kinds of change whose code differs, from `start`: the other basis and
 * another k (a pairing's kappa and within counts), an annotator and an LLM as
 * A (the leave-one-out, a rater's side, a new pairing), the same as B. Raters
 * are picked among those the slice holds; a kind with no such rater is left out.
 */
export function warmOptions(slice: AgreementEngine, start: ViewOptions): ViewOptions[] {
  const {a, b, bins, basis} = start;
  const named = slice.namedRaters();
  const annotator = named.find((r) => slice.isAnnotator(r) && !sameRater(r, a) && !sameRater(r, b));
  const llm = named.find((r) => !slice.isAnnotator(r) && !sameRater(r, a) && !sameRater(r, b));
  const out: ViewOptions[] = [start, {a, b, bins, basis: basis === "dimension" ? "annotators" : "dimension"}, {a, b, bins: bins === 2 ? 3 : bins - 1, basis}];
  for (const rater of [annotator, llm]) {
    if (rater === undefined) continue;
    const choice: RaterChoice = {rater};
    out.push({a: choice, b, bins, basis});
    if (!sameRater(rater, a)) out.push({a, b: choice, bins, basis});
  }
  return out;
}

/**
 * Computes the likely changes' views over the first `instances` instances on
 * an engine of its own, one view per step, and drops it at the end: only the
 * compiled code stays. Both ways a view is made run: ahead, step by step
 * (prefetchStep), and on request (view), as their passes share the functions
 * but not every call site. The worker takes one step per turn, so a request
 * that comes meanwhile waits for one view over the slice, not the whole warm-up.
 */
export function* warmUpSteps(columns: AgreementColumns, dimensionKeys: readonly string[], start: ViewOptions, instances = WARM_INSTANCES): Generator<void, void> {
  const slice = new AgreementEngine(leadingInstances(columns, instances), dimensionKeys);
  const [first, ...rest] = warmOptions(slice, start);
  slice.view(first!);
  slice.countAnnotatorsKappa(first!.bins);
  yield;
  // Ahead, step by step: the first neighbours of the start (the other basis, the raters next to A and B, a k).
  for (let views = 0; views < 4;) {
    const step = slice.prefetchStep(first!);
    if (step === null) break;
    if (step !== STEP) {
      views++;
      yield;
    }
  }
  // On request: each kind of change, as the reader's first change would ask for it.
  for (const o of rest) {
    slice.view(o);
    yield;
  }
}

/** warmUpSteps all at once. */
export function warmUp(columns: AgreementColumns, dimensionKeys: readonly string[], start: ViewOptions, instances = WARM_INSTANCES): void {
  for (const _ of warmUpSteps(columns, dimensionKeys, start, instances));
}

const sameRater = (name: string, choice: RaterChoice): boolean => choice !== HUMANS && choice.rater === name;
