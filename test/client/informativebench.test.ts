import {describe, expect, it} from "vitest";
import {goldSentence, scoringCaption} from "../../src/client/informativebench.js";
import {questionRecords} from "../../src/components/informativebench-views.js";
import type {AblationRow, IbScoredRow} from "../../src/lib/informativebench.js";
import * as vega from "vega";
import {compile} from "vega-lite";
import {ablationChart} from "../../src/components/informativebench-charts.js";
import {vegaWarnings} from "../helpers/vega-warnings.js";

describe("the InformativeBench page's captions", () => {
  const check = (i: number, agrees: boolean) => ({dataset: "ScheduleEasy", question_id: `se-${i}`, logged: "3", verifier: agrees ? "3" : "2", agrees});

  it("names the verifier's options beside the gold check, and lists at most ten disagreeing answers", () => {
    expect(goldSentence({checks: [check(1, true), check(2, false)], unchecked: 0}, {easy: "between", fixed: "none"})).toBe(
      "Gold answers checked by the schedule verifier (easy overlaps between, fixed activities none): 1 of 2 agree; disagreeing: ScheduleEasy se-2 (log: 3; verifier: 2).");
    const many = goldSentence({checks: Array.from({length: 12}, (_, i) => check(i, false)), unchecked: 1});
    expect(many).toMatch(/^Gold answers checked by the schedule verifier: 0 of 12 agree; 1 schedule question\(s\) have no schedule/);
    expect(many).toContain("ScheduleEasy se-9 (log: 3; verifier: 2); and 2 more.");
    expect(many).not.toContain("se-10 ");
  });

  it("says the scoring options in a few words under each table", () => {
    expect(scoringCaption({match: "contains", freeText: "items", settings: "majority", base: "majority"}))
      .toBe("Match contains; ScheduleMedium F1 free text read as items; records: each dataset's base settings (base majority) (see Options in effect).");
    expect(scoringCaption({match: "exact", freeText: "commentary", settings: "all", base: "paper"}))
      .toBe("Match exact; ScheduleMedium F1 free text read as commentary; records: every record (see Options in effect).");
  });

  it("lists questions as plain values: a missing prediction says so, gold answers joined", () => {
    const row = {question_id: "q", model: "m", dataset: "NP", question: "<b>Who?</b>", prediction: null, gold: ["Ann", "Anne"], score: 0, problem: "no prediction"} as unknown as IbScoredRow;
    expect(questionRecords([row])).toEqual([{question_id: "q", backend: "m", dataset: "NP", question: "<b>Who?</b>", prediction: "(no answer)", gold: "Ann | Anne", score: 0, problem: "no prediction"}]);
  });
});

describe("ablationChart", () => {
  const ablation = (variant: string, delta: number) => ({dataset: "NVD", model: "gpt-4", variant, delta}) as unknown as AblationRow;

  it("draws its axis in percentage points, as its title and the table say: −20 and +10, no per cent sign", async () => {
    const spec = ablationChart([ablation("no consensus", -0.2), ablation("more rounds", 0.1)], {width: 900});
    const view = new vega.View(vega.parse(compile(spec).spec), {renderer: "none"});
    await view.runAsync();
    const svg = await view.toSVG();
    view.finalize();
    const ticks = Array.from(svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g), (m) => m[1]);
    expect(ticks).toContain("−20");
    expect(ticks).toContain("+10");
    expect(ticks).toContain("variant − base (percentage points)");
    expect(svg).not.toContain("%");
    expect(await vegaWarnings(spec)).toEqual([]);
  });
});
