// The Reliability section's first run waits until the section comes near the
// view or the agreement worker has nothing left to compute ahead, whichever
// is first: read at once, its 5.3M rows at 100k took a core from the
// reader's first change of rater.

import {afterEach, describe, expect, it, vi} from "vitest";
import {DUE_MARGIN, reliabilityDue} from "../../src/client/reliability.js";

/** A stand-in IntersectionObserver: the test says when the observed element comes near. */
class FakeObserver {
  static last: FakeObserver | null = null;
  observed: unknown[] = [];
  disconnected = false;
  constructor(readonly callback: (entries: {isIntersecting: boolean}[]) => void, readonly options: {rootMargin?: string}) {
    FakeObserver.last = this;
  }
  observe(target: unknown) {
    this.observed.push(target);
  }
  disconnect() {
    this.disconnected = true;
  }
  /** What the browser does when the element crosses the margin either way. */
  cross(isIntersecting: boolean) {
    if (!this.disconnected) this.callback([{isIntersecting}]);
  }
}

const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};

describe("reliabilityDue", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeObserver.last = null;
  });

  it("waits while the section is away and the agreement worker computes ahead, and is due once the section comes near", async () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    const section = {id: "reliability"};
    const due = reliabilityDue(section as never, new Promise(() => {}));
    const observer = FakeObserver.last!;
    expect(observer.observed).toEqual([section]);
    expect(observer.options.rootMargin).toBe(DUE_MARGIN);
    observer.cross(false);
    expect(await settled(due)).toBe(false);
    observer.cross(true);
    expect(await settled(due)).toBe(true);
    expect(observer.disconnected).toBe(true);
  });

  it("is due once the agreement worker is idle, or has failed, with the section still away", async () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    let idle = () => {};
    const due = reliabilityDue({} as never, new Promise<void>((resolve) => (idle = resolve)));
    expect(await settled(due)).toBe(false);
    idle();
    expect(await settled(due)).toBe(true);
    expect(FakeObserver.last!.disconnected).toBe(true);
    let fail = (_: Error) => {};
    const failed = reliabilityDue({} as never, new Promise<void>((_, reject) => (fail = reject)));
    expect(await settled(failed)).toBe(false);
    fail(new Error("the agreement worker failed"));
    expect(await settled(failed)).toBe(true);
  });

  it("is due at once where there is no IntersectionObserver", async () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    expect(await settled(reliabilityDue({} as never, new Promise(() => {})))).toBe(true);
  });
});
