// Names on the command line that the store has not got are errors (exit 2,
// naming what it has, with a did-you-mean), never an empty table with exit 0
// (issue 33, item 5); and `rater=humans`, the annotators pooled, is a rater
// of `compare sotopia` (item 3), checked against means computed here from
// the raw ratings.

import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {openStore, rows} from "../../loaders/store/db.js";
import {cli} from "../helpers/cli.js";
import {copySamplesStore} from "../helpers/shared-stores.js";

let dir: string;
let db: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sociometer-compare-names-"));
  db = join(dir, "samples.duckdb");
  await copySamplesStore(db);
}, 120_000);

afterAll(() => rmSync(dir, {recursive: true, force: true}));

const SOTOPIA_RATERS = "annotator-01, annotator-02, annotator-03, annotator-04, annotator-05, annotator-06, annotator-07, annotator-08, gpt-4, gpt-4o, humans";

async function refused(args: string[], ...messages: (string | RegExp)[]) {
  const r = await cli([...args, "--db", db]);
  expect(r.stdout).toBe("");
  for (const m of messages) expect(r.stderr).toMatch(m);
  expect(r.code).toBe(2);
}

describe("compare: unknown names", () => {
  it("rater=nobody names the raters the SOTOPIA rows have, the pooled humans among them", async () => {
    await refused(["compare", "sotopia", "--a", "model=gpt-4", "rater=nobody", "--b", "model=gpt-3.5-turbo", "rater=gpt-4"],
      `no rater "nobody" in the store's sotopia rows (side A, rater=nobody); raters there: ${SOTOPIA_RATERS}`);
  });

  it("model=gpt4 on side B: did you mean gpt-4", async () => {
    await refused(["compare", "sotopia", "--a", "model=gpt-3.5-turbo", "--b", "model=gpt4"],
      /no model "gpt4" in the store's sotopia rows \(side B, model=gpt4\); did you mean "gpt-4"\?; models there: gpt-3.5-turbo, gpt-4, human, /);
  });

  it("without a benchmark, the message says which one it looked in and how to name another", async () => {
    await refused(["compare", "--a", "model=claude-sonnet", "--b", "model=gpt-4"], /sotopia is the first benchmark with scores: name another/);
  });

  it("source=, run= and setting= are checked too, and InformativeBench (scored in JS) as well", async () => {
    await refused(["compare", "sotopia", "--a", "rater=gpt-4o", "run=prompt-v3", "--b", "rater=gpt-4o", "run=prompt-v2"],
      /no run "prompt-v3" in the store's sotopia rows \(side A, run=prompt-v3\); did you mean "prompt-v1"\?/);
    await refused(["compare", "stss", "--a", "model=gpt-4", "source=nosuch.jsonl", "--b", "model=gpt-35-turbo"], /no source "nosuch.jsonl" in the store's stss rows/);
    await refused(["compare", "stss", "--a", "setting=GA+TD", "--b", "setting=GA"], /no setting "GA\+TD" in the store's stss rows .*did you mean "GA\+TDP"\?/);
    await refused(["compare", "informativebench", "--a", "model=nosuch", "--b", "model=gpt-4-0125-preview"],
      "no model \"nosuch\" in the store's informativebench rows (side A, model=nosuch); models there: claude-sonnet, gemini-1.0-pro, gpt-3.5-turbo-16k, gpt-4-0125-preview");
  });

  it("names the store has that no row has together: exit 0, and the note says so", async () => {
    const r = await cli(["compare", "sotopia", "--a", "model=human", "rater=gpt-4o", "--b", "model=gpt-4", "rater=gpt-4o", "--format", "json", "--db", db]);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c.notes).toContain("side A (model=human, rater=gpt-4o) has no items: each name is in the store, but no sotopia row has them all together");
  });
});

describe("report sotopia: unknown names", () => {
  it("--model, --rater, --hard-target and --hard-dimension", async () => {
    await refused(["report", "sotopia", "--model", "gpt4"], /no model "gpt4" in the store's SOTOPIA scores \(--model\); did you mean "gpt-4"\?; models there: gpt-3.5-turbo, gpt-4, /);
    await refused(["report", "sotopia", "--rater", "gpt4"], `did you mean "gpt-4"?; raters there: ${SOTOPIA_RATERS}`);
    await refused(["report", "sotopia", "--hard-target", "gpt-3.5"], /no model "gpt-3.5" in the store's SOTOPIA scores \(--hard-target\)/);
    await refused(["report", "sotopia-hard", "--hard-target", "gpt-4", "--hard-dimension", "gaol"], /no dimension "gaol" in SOTOPIA-EVAL \(--hard-dimension\); did you mean "goal"\?/);
  });
});

describe("compare: rater=humans, the annotators pooled", () => {
  it("gpt-4 against the humans on the same seats: each seat's human score is the mean over its annotators, each annotator's repeats averaged first", async () => {
    const r = await cli(["compare", "sotopia", "--a", "rater=gpt-4", "--b", "rater=humans", "--format", "json", "--db", db]);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    const goal = c.metrics.find((m: {metric: string}) => m.metric === "goal");
    const store = await openStore(db, {readOnly: true});
    let ratings: {episode_id: string; agent: number; rater: string; rater_kind: string; value: number}[];
    try {
      ratings = await rows(store.conn, `SELECT r.episode_id, r.agent, r.rater, r.rater_kind, r.value::DOUBLE AS value
        FROM ratings r JOIN episodes e USING (episode_id) WHERE e.benchmark = 'sotopia' AND r.dimension = 'goal' AND (r.rater_kind = 'human' OR r.rater = 'gpt-4')`);
    } finally {
      store.close();
    }
    // seat → rater → that rater's scores, then the two sides' seat scores.
    const bySeat = new Map<string, Map<string, number[]>>();
    for (const x of ratings) {
      const seat = `${x.episode_id}\u0000${x.agent}`;
      const raters = bySeat.get(seat) ?? new Map<string, number[]>();
      bySeat.set(seat, raters);
      const key = x.rater_kind === "human" ? `h:${x.rater}` : "judge";
      raters.set(key, [...(raters.get(key) ?? []), x.value]);
    }
    const mean = (v: readonly number[]) => v.reduce((s, y) => s + y, 0) / v.length;
    const a: number[] = [];
    const b: number[] = [];
    for (const raters of bySeat.values()) {
      const humans = [...raters].filter(([k]) => k.startsWith("h:")).map(([, v]) => mean(v));
      if (!raters.has("judge") || !humans.length) continue;
      a.push(mean(raters.get("judge")!));
      b.push(mean(humans));
    }
    expect(a.length).toBeGreaterThan(10);
    expect(goal.n_paired).toBe(a.length);
    expect(goal.mean_a).toBeCloseTo(mean(a), 10);
    expect(goal.mean_b).toBeCloseTo(mean(b), 10);
  });
});
