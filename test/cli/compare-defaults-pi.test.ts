// `sociometer compare` on the Sotopia-π human evaluation (154 episodes, six
// annotation CSVs, no LLM judge): it opens on the pooled annotators, the rater
// that scored the most episodes, and on the two models that pair on the most
// items under them (issue 33, item 4), where it opened on one annotator and
// two pairs; and a comparison on fewer than 10 pairs, or on intervals of df
// ≤ 2, says so in its caution column and notes (item 6).

import {copyFileSync, mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterAll, beforeAll, expect, it} from "vitest";
import {compareFromArgs} from "../../loaders/cli/compare.js";
import {openStore, rows, type Store} from "../../loaders/store/db.js";
import {cli} from "../helpers/cli.js";
import {describeWithFixtures} from "../helpers/fixtures.js";
import {sharedSotopiaPiStore} from "../helpers/shared-stores.js";

let dir: string;
let db: string;
let store: Store;

type Metric = {metric: string; n_paired: number; caution: string; lo: number; hi: number};

describeWithFixtures("compare on the Sotopia-π human evaluation", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sociometer-compare-pi-"));
    db = join(dir, "pi.duckdb");
    copyFileSync(await sharedSotopiaPiStore(), db);
    store = await openStore(db, {readOnly: true});
  }, 300_000);

  afterAll(() => {
    store?.close();
    rmSync(dir, {recursive: true, force: true});
  });

  it("opens on the pooled annotators and the two models that pair most under them: more than 2 pairs", async () => {
    const [{n}] = await rows<{n: number}>(store.conn, "SELECT count(DISTINCT episode_id)::INTEGER AS n FROM ratings WHERE rater_kind = 'human'");
    const [{most}] = await rows<{most: number}>(store.conn,
      "SELECT max(k)::INTEGER AS most FROM (SELECT count(DISTINCT episode_id) AS k FROM ratings GROUP BY rater)");
    // Any annotator scored at most 61 of the 154 episodes the annotators scored together.
    expect([n, most]).toEqual([154, 61]);
    const c = await compareFromArgs(store, "sotopia", [], [], {adjust: "holm", resamples: 50, seed: 1});
    expect([c.a.rater, c.b.rater]).toEqual(["humans", "humans"]);
    expect(c.notes[0]).toMatch(/^defaults: rated by humans \(the annotators pooled\), the rater that scored the most sotopia episodes \(154\); /);
    // Every two models under the pooled annotators, compared by the comparison itself: the default pair pairs the most.
    const models = (await rows<{model: string}>(store.conn, "SELECT DISTINCT model FROM participants ORDER BY model")).map((m) => m.model);
    const sums = new Map<string, number>();
    for (let j = 1; j < models.length; j++) {
      for (let i = 0; i < j; i++) {
        const x = await compareFromArgs(store, "sotopia", [`model=${models[i]}`, "rater=humans"], [`model=${models[j]}`, "rater=humans"], {adjust: "none", resamples: 1});
        sums.set([models[i], models[j]].sort().join(" "), x.metrics.reduce((s, m) => s + m.nPaired, 0));
      }
    }
    const best = Math.max(...sums.values());
    expect(sums.get([c.a.model!, c.b.model!].sort().join(" "))).toBe(best);
    expect(c.metrics.every((m) => m.nPaired > 2)).toBe(true);
  });

  it("pools the annotators per item with each annotator's repeated responses averaged first, as computed here from the raw ratings", async () => {
    const ratings = await rows<{seat: string; rater: string; value: number}>(store.conn, `SELECT episode_id || '/' || agent AS seat, rater, value::DOUBLE AS value
      FROM ratings WHERE rater_kind = 'human' AND dimension = 'goal'`);
    const bySeat = new Map<string, Map<string, number[]>>();
    for (const r of ratings) {
      const raters = bySeat.get(r.seat) ?? new Map<string, number[]>();
      bySeat.set(r.seat, raters);
      raters.set(r.rater, [...(raters.get(r.rater) ?? []), r.value]);
    }
    const mean = (v: readonly number[]) => v.reduce((x, y) => x + y, 0) / v.length;
    const seats = [...bySeat.values()].filter((raters) => raters.has("rater-04"));
    const pooled = mean(seats.map((raters) => mean([...raters.values()].map(mean))));
    // rater-04 answered 4 of these goal items twice; on none of them did another annotator answer, so pooling every
    // response alike would give the same mean here: the per-annotator step is held to the SQL's by this store only as exactly.
    const c = await compareFromArgs(store, "sotopia", ["rater=humans"], ["rater=rater-04"], {adjust: "none", resamples: 1});
    const goal = c.metrics.find((m) => m.metric === "goal")!;
    expect(c.pairing).toBe("instance");
    expect(goal.nPaired).toBe(seats.length);
    expect(goal.meanA).toBeCloseTo(pooled, 10);
  });

  it("says small samples and uninformative intervals beside the numbers", async () => {
    const r = await cli(["compare", "sotopia", "--format", "json", "--db", db]);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout) as {notes: string[]; metrics: Metric[]};
    expect(c.metrics.map((m) => [m.n_paired, m.caution])).toEqual(c.metrics.map(() => [9, "SMALL SAMPLE: only 9 paired (fewer than 10)"]));
    expect(c.notes).toContain("SMALL SAMPLES: every metric has fewer than 10 pairs (marked beside n paired)");
    // One annotator on two pairs: df 1, and the t interval's ends still given, marked.
    const two = await cli(["compare", "sotopia", "--a", "model=BC", "rater=rater-03", "--b", "model=mistral", "rater=rater-03", "--format", "json", "--db", db]);
    const goal = (JSON.parse(two.stdout) as {metrics: Metric[]}).metrics.find((m) => m.metric === "goal")!;
    expect(goal.n_paired).toBe(2);
    expect(goal.caution).toBe("SMALL SAMPLE: only 2 paired (fewer than 10); intervals on df 1: not informative");
    expect(Number.isFinite(goal.lo) && Number.isFinite(goal.hi)).toBe(true);
  });
});
