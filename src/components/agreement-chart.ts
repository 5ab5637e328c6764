// A Vega-Lite chart that stays on the agreement page while the reader changes
// options. Embedding a new chart (compiling Vega-Lite, parsing the Vega spec,
// building the dataflow and the SVG) costs most of a rater change's time; a
// chart whose specs differ only in named inline datasets and top-level params
// is instead updated in place (view.data, view.signal, runAsync), which
// redraws only the marks that changed. A chart away from the reader's view
// is not redrawn on every change at all: the latest spec waits until the
// chart comes near the viewport (an IntersectionObserver), so a change of
// rater made at the menus costs the page no Vega work for charts a screen or
// more below.

import embed from "vega-embed";
import type {View} from "vega";
import type {TopLevelSpec} from "vega-lite";
import {OFFLINE_EMBED} from "./vega.js";

/** A dataset the chart's owner may swap: inline data with a name. */
interface NamedData {
  name: string;
  values: unknown[];
}

/** A top-level param: a signal the spec's expressions read. */
interface Param {
  name: string;
  value: unknown;
}

const isNamedData = (x: unknown): x is NamedData =>
  x !== null && typeof x === "object" && typeof (x as NamedData).name === "string" && Array.isArray((x as NamedData).values);

/** Every named inline dataset of a spec and its layers, in spec order. */
export function namedData(spec: TopLevelSpec): NamedData[] {
  const out: NamedData[] = [];
  const visit = (node: {data?: unknown; layer?: unknown[]}) => {
    if (isNamedData(node.data)) out.push(node.data);
    for (const child of node.layer ?? []) visit(child as typeof node);
  };
  visit(spec as never);
  return out;
}

/** The top-level params that carry a value (not selections). */
function valueParams(spec: TopLevelSpec): Param[] {
  const params = (spec as {params?: (Param & {select?: unknown})[]}).params ?? [];
  return params.filter((p) => p.select === undefined);
}

/**
 * What must stay equal for a chart to be updated in place rather than
 * embedded again: the spec with the values of its named datasets and of its
 * top-level params left out.
 */
export function chartShape(spec: TopLevelSpec): string {
  const swapped = new Set<unknown>([...namedData(spec), ...valueParams(spec)]);
  return JSON.stringify(spec, function (this: unknown, key, value) {
    if (swapped.has(this) && (key === "values" || key === "value")) return null;
    return value;
  });
}

/** Brings a view drawn from a spec of the same shape (chartShape) to `spec`: its params, then its named datasets. */
export async function updateInPlace(view: View, spec: TopLevelSpec): Promise<void> {
  for (const p of valueParams(spec)) view.signal(p.name, p.value);
  for (const d of namedData(spec)) view.data(d.name, d.values);
  await view.runAsync();
}

/** How far outside the viewport a chart counts as near: a quarter of its height above and below, so it is drawn before it scrolls in. */
export const NEAR_MARGIN = "25% 0px";

/**
 * Holds the updates of something drawn away from the reader's view: while
 * not near, update(value) only keeps the value (the last one wins), and it is
 * drawn once setNear(true) says the thing came near; while near, at once.
 * The first update always draws (the page's first view is drawn wherever it
 * is). Each update's promise resolves once a value at least as recent is drawn.
 * `stale(true)` is called when a value starts waiting and `stale(false)` once
 * what is drawn is the latest again, so what shows the old value can hide it.
 */
export function heldWhileAway<T>(draw: (value: T) => Promise<void>, stale: (isStale: boolean) => void = () => {}): {update(value: T): Promise<void>; setNear(near: boolean): void} {
  let near = true;
  let drawnOnce = false;
  let held: {value: T; waiting: (() => void)[]} | null = null;
  let isStale = false;
  const setStale = (now: boolean) => {
    if (now !== isStale) stale((isStale = now));
  };
  const drawNow = (value: T, waiting: (() => void)[]): Promise<void> =>
    draw(value).finally(() => {
      if (held === null) setStale(false);
      waiting.forEach((resolve) => resolve());
    });
  return {
    update(value) {
      if (near || !drawnOnce) {
        drawnOnce = true;
        const waiting = held?.waiting ?? [];
        held = null;
        return drawNow(value, waiting);
      }
      const waiting = held?.waiting ?? [];
      held = {value, waiting};
      setStale(true);
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    setNear(now) {
      near = now;
      if (!near || held === null) return;
      const {value, waiting} = held;
      held = null;
      void drawNow(value, waiting);
    },
  };
}

export interface LiveChart {
  /** The chart's place on the page, made once: the page displays it in a cell that never re-runs. */
  readonly element: HTMLDivElement;
  /** Shows `spec` (null: nothing), in place when its shape is the last one's; away from the view, once the chart comes near (heldWhileAway); resolves once drawn. */
  show(spec: TopLevelSpec | null): Promise<void>;
}

/** A chart that keeps its Vega view across calls of show(). */
export function liveChart(testId?: string): LiveChart {
  const element = document.createElement("div");
  if (testId) element.dataset.testid = testId;
  let drawn: {view: View; shape: string; spec: string} | null = null;
  // Calls run one at a time; one superseded while another draws is skipped.
  let queue: Promise<void> = Promise.resolve();
  let latest = 0;
  const draw = async (spec: TopLevelSpec | null, call: number): Promise<void> => {
    if (call !== latest) return;
    if (spec === null) {
      drawn?.view.finalize();
      drawn = null;
      element.replaceChildren();
      return;
    }
    // A change of k leaves both charts as they are: nothing to do then.
    const text = JSON.stringify(spec);
    if (drawn !== null && drawn.spec === text) return;
    const shape = chartShape(spec);
    if (drawn !== null && drawn.shape === shape) {
      drawn.spec = text;
      return updateInPlace(drawn.view, spec);
    }
    // Drawn off the page, then swapped in: the old chart stays until the new one is whole.
    const div = document.createElement("div");
    div.className = "vega-chart";
    const {view} = await embed(div, spec as never, OFFLINE_EMBED);
    drawn?.view.finalize();
    drawn = {view, shape, spec: text};
    element.replaceChildren(div);
  };
  // A chart holding a newer choice than it shows is hidden (style.css), so a reader who jumps to it never reads the old numbers.
  const shown = heldWhileAway(
    (spec: TopLevelSpec | null) => {
      const call = ++latest;
      queue = queue.then(() => draw(spec, call), () => draw(spec, call));
      return queue;
    },
    (isStale) => element.toggleAttribute("data-stale", isStale),
  );
  if (typeof IntersectionObserver !== "undefined") {
    new IntersectionObserver((entries) => shown.setNear(entries[entries.length - 1]!.isIntersecting), {rootMargin: NEAR_MARGIN}).observe(element);
  }
  return {element, show: (spec) => shown.update(spec)};
}
