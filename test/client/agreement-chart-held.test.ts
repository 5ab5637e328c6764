// A chart away from the reader's view keeps only the latest spec and draws it
// when it comes near: a change of rater made at the menus, a screen or more
// above the charts, costs the page no Vega work for them.

import {describe, expect, it} from "vitest";
import {heldWhileAway} from "../../src/components/agreement-chart.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("heldWhileAway", () => {
  it("draws the first value wherever the chart is, holds later ones while away, and draws only the last one when it comes near", async () => {
    const drawn: string[] = [];
    const held = heldWhileAway(async (value: string) => {
      drawn.push(value);
    });
    held.setNear(false);
    await held.update("gpt-4 against the humans");
    expect(drawn).toEqual(["gpt-4 against the humans"]);
    const resolved: string[] = [];
    void held.update("llama against the humans").then(() => resolved.push("llama"));
    void held.update("annotator-07 against the humans").then(() => resolved.push("annotator-07"));
    await tick();
    expect(drawn).toEqual(["gpt-4 against the humans"]);
    expect(resolved).toEqual([]);
    held.setNear(true);
    await tick();
    expect(drawn).toEqual(["gpt-4 against the humans", "annotator-07 against the humans"]);
    expect(resolved).toEqual(["llama", "annotator-07"]);
    // Near: at once. Away and back with nothing held: nothing drawn.
    await held.update("k = 3");
    held.setNear(false);
    held.setNear(true);
    await tick();
    expect(drawn).toEqual(["gpt-4 against the humans", "annotator-07 against the humans", "k = 3"]);
  });

  it("draws a value that comes while near even with one held from before, and settles the held one's promise with it", async () => {
    const drawn: string[] = [];
    const held = heldWhileAway(async (value: string) => {
      drawn.push(value);
    });
    await held.update("first");
    held.setNear(false);
    let settled = false;
    void held.update("held").then(() => (settled = true));
    held.setNear(false);
    await tick();
    expect(settled).toBe(false);
    // Came near and a new value at once (before the held one was drawn): both drawn in turn, the held one's promise settled.
    held.setNear(true);
    await held.update("new");
    await tick();
    expect(drawn).toEqual(["first", "held", "new"]);
    expect(settled).toBe(true);
  });

  it("says the drawn value is stale from the first value held until the latest one is drawn", async () => {
    const events: string[] = [];
    let finish: () => void = () => {};
    const held = heldWhileAway(
      (value: string) => {
        events.push(`draw ${value}`);
        return new Promise<void>((resolve) => (finish = resolve));
      },
      (isStale) => events.push(isStale ? "stale" : "fresh"),
    );
    const first = held.update("first");
    finish();
    await first;
    held.setNear(false);
    void held.update("second");
    void held.update("third");
    expect(events).toEqual(["draw first", "stale"]);
    held.setNear(true);
    expect(events).toEqual(["draw first", "stale", "draw third"]);
    // Still stale while the latest value is being drawn; fresh once it is.
    finish();
    await tick();
    expect(events).toEqual(["draw first", "stale", "draw third", "fresh"]);
  });
});
