// The line that says the worker is computing: a change the page holds the view
// for gives the line one value, so the runtime draws it once, in the change's
// own frame; a second, equal value redrew it a frame later, after that
// frame's layout and paint (at 100k in Chromium, the change's last DOM change
// came 50–60 ms later under load).

import {describe, expect, it} from "vitest";
import {COMPUTING_TEXT, computingLine} from "../../src/client/agreement.js";

describe("computingLine", () => {
  it("says nothing, once, when the view is ready", async () => {
    const said: string[] = [];
    computingLine(true, Promise.resolve(), (text) => said.push(text));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(said).toEqual([""]);
  });

  it("says the worker is computing at once, and nothing once it answers or fails", async () => {
    for (const outcome of ["answers", "fails"]) {
      const said: string[] = [];
      let settle!: () => void;
      const pending = new Promise<void>((resolve, reject) => (settle = outcome === "answers" ? resolve : () => reject(new Error("no rows"))));
      computingLine(false, pending, (text) => said.push(text));
      expect(said).toEqual([COMPUTING_TEXT]);
      settle();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(said).toEqual(["Computing these options in the background worker…", ""]);
    }
  });
});
