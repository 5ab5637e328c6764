// data/disagreements.json, the agreement page's lists, against `report
// disagreements` for every choice it ships on the samples: the same rows, in
// the same order, with the same rationales, and never more than 20 a list.

import {join} from "node:path";
import {beforeAll, describe, expect, it} from "vitest";
import type {DisagreementPack} from "../../src/components/disagreements.js";
import {getReport} from "../../loaders/cli/reports.js";
import {openStore} from "../../loaders/store/db.js";
import {cli} from "../helpers/cli.js";
import {REPO} from "../helpers/fixtures.js";
import {runLoaderInProcess} from "../helpers/run-loader.js";
import {sharedSamplesStore} from "../helpers/shared-stores.js";

const LOADER = join(REPO, "src", "data", "disagreements.json.ts");

describe("the disagreements loader on the samples", () => {
  let db: string;
  let pack: DisagreementPack;
  beforeAll(async () => {
    db = await sharedSamplesStore();
    pack = JSON.parse((await runLoaderInProcess(LOADER, {store: db})).toString("utf8")) as DisagreementPack;
  }, 300_000);

  it("ships the judge against the humans and against the other judge, each annotator against the rest, and the annotators among themselves", () => {
    const pairs = [...new Set(pack.lists.filter((l) => l.dimension === null).map((l) => `${l.a} / ${l.b}`))];
    expect(pairs).toEqual(["gpt-4 / humans", "gpt-4 / gpt-4o", "gpt-4o / gpt-4", "humans / null",
      ...Array.from({length: 8}, (_, i) => `annotator-0${i + 1} / humans`)]);
    // Each pair: every dimension together, then the seven alone.
    expect(pack.lists.length).toBe(pairs.length * 8);
    expect(Math.max(...pack.lists.map((l) => l.rows.length))).toBe(20);
    // 84 episodes × 2 agents × 7 dimensions scored by gpt-4 and the annotators.
    expect(pack.lists.find((l) => l.a === "gpt-4" && l.b === "humans" && l.dimension === null)?.paired).toBe(1176);
  });

  it("every list equals the CLI's rows for the same choice", async () => {
    // The report itself on one open store: through `cli` each of the 96 choices opened the store again (a minute in all).
    const store = await openStore(db, {readOnly: true});
    try {
      for (const list of pack.lists) {
        expectSameRows(pack, list, await getReport("disagreements").run(store, {
          rater: list.a, against: list.b ?? undefined, disagreements: {dimension: list.dimension ?? undefined},
        }));
      }
    } finally {
      store.close();
    }
    // And once through the command line, as a user runs it.
    const goal = pack.lists.find((l) => l.a === "gpt-4" && l.b === "humans" && l.dimension === "goal")!;
    const out = await cli(["report", "disagreements", "--db", db, "--format", "json", "--rater", "gpt-4", "--against", "humans", "--dimension", "goal"]);
    expect(out.code).toBe(0);
    expectSameRows(pack, goal, JSON.parse(out.stdout));
  }, 300_000);
});

/** The pack's rows of `list` as the report's columns, equal to the report's rows. */
function expectSameRows(pack: DisagreementPack, list: DisagreementPack["lists"][number], table: {rows: Record<string, unknown>[]}): void {
  const text = (i: number) => (i < 0 ? null : pack.texts[i]);
  const got = list.rows.map(([episode_id, agent, dimension, a, b, gap, range, annotators, mean, aText, bText], k) => list.b === null
    ? {rank: k + 1, episode_id, agent, dimension, range: gap, annotators, low: a, high: b, mean, rationales: text(bText)}
    : {rank: k + 1, episode_id, agent, dimension, a, b, gap, range, annotators, a_rationale: text(aText), b_rationale: text(bText)});
  expect(got, `${list.a} / ${list.b} / ${list.dimension}`).toEqual(table.rows);
}
