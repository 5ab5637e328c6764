// The episode viewer's score index built from the samples: each cell holds as
// many scored agents as the SOTOPIA page's n for it (the same statistics
// query's groups), a filtered list reads only its cell's blocks, and a link
// built by episodeListHref reads back as the same filters.

import {createWriteStream, mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {finished} from "node:stream/promises";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rows, type Store} from "../../loaders/store/db.js";
import {SOTOPIA_STATS_SQL, sotopiaGroupsSql} from "../../loaders/queries/sotopia.js";
import {episodeFilters, episodeListHref, filteredCountText, loadFiltered, openScoreIndex, type ScoreIndex} from "../../src/client/episodes.js";
import {writeScorePack} from "../../src/data/viewer-scores.js";
import {serveStatic} from "../../scripts/serve.js";
import {openSamplesCopy} from "../helpers/shared-stores.js";

interface Group {
  rater: string;
  dimension: string;
  model: string;
  partner: string;
  n: number;
}

describe("the score index behind the viewer's filtered lists", () => {
  let store: Store;
  let index: ScoreIndex;
  let groups: Group[];
  let requests: string[];
  let close: () => Promise<void>;
  // Kept for the whole file: the helpers' temporary folders and stores go after each test.
  const dir = mkdtempSync(join(tmpdir(), "sociometer-scores-"));

  beforeAll(async () => {
    store = await openSamplesCopy(join(dir, "store.duckdb"));
    const out = createWriteStream(join(dir, "scores.bin"));
    // Small blocks, so the samples' larger cells span several.
    await writeScorePack(store.conn, out, {rowsPerBlock: 7});
    out.end();
    await finished(out);
    groups = await rows<Group>(store.conn, `SELECT rater, dimension, model, partner, n FROM (${sotopiaGroupsSql(`(${SOTOPIA_STATS_SQL})`)}) ORDER BY ALL`);
    const site = await serveStatic(dir);
    close = site.close;
    requests = [];
    const fetchFn = ((input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(new Headers(init?.headers).get("range") ?? "whole");
      return fetch(input, init);
    }) as typeof fetch;
    index = await openScoreIndex(`${site.origin}/scores.bin`, {fetchFn});
  }, 120_000);

  afterAll(async () => {
    await close?.();
    store?.close();
    rmSync(dir, {recursive: true, force: true});
  });

  it("has one cell per (rater, dimension, model, partner) group of the SOTOPIA page, with the same n", () => {
    const cells = index.cells.map(({rater, dimension, model, partner, n}) => ({rater, dimension, model, partner, n}));
    const key = (g: Group) => `${g.rater}|${g.dimension}|${g.model}|${g.partner}`;
    expect(groups.length).toBeGreaterThan(100);
    expect(new Map(cells.map((c) => [key(c), c.n]))).toEqual(new Map(groups.map((g) => [key(g), g.n])));
  });

  it("lists exactly a means cell's n (a model on a dimension, any partner) and a matrix cell's n, for an LLM and for the annotators' mean", async () => {
    for (const rater of ["gpt-4", "humans"]) {
      for (const dimension of ["goal", "overall"]) {
        const model = groups.find((g) => g.rater === rater && g.dimension === dimension)!.model;
        const n = groups.filter((g) => g.rater === rater && g.dimension === dimension && g.model === model).reduce((s, g) => s + g.n, 0);
        const list = await loadFiltered(index, episodeFilters(new URL(episodeListHref({benchmark: "sotopia", rater, dimension, model}), "http://x/").search).filters);
        expect(list.refusal).toBeNull();
        expect(list.rows.length, `${rater} ${dimension} ${model}`).toBe(n);
        expect(list.rows.every((r) => r.model === model && r.dimension === dimension && r.rater === rater)).toBe(true);
        const pair = groups.find((g) => g.rater === rater && g.dimension === dimension && g.model === model)!;
        const cell = await loadFiltered(index, {benchmark: "sotopia", rater, dimension, model, partner: pair.partner});
        expect(cell.rows.length).toBe(pair.n);
        expect(cell.blocks).toBe(Math.ceil(pair.n / 7));
      }
    }
  });

  it("fetches only the blocks of the cells asked for", async () => {
    const big = [...index.cells].sort((a, b) => b.n - a.n)[0]!;
    const before = requests.length;
    const list = await loadFiltered(index, {rater: big.rater, dimension: big.dimension, model: big.model, partner: big.partner});
    expect(list.rows.length).toBe(big.n);
    // One request for each block's index entry and one for its bytes; never the whole file.
    expect(requests.length - before).toBe(2 * big.blocks);
    expect(requests.includes("whole")).toBe(false);
  });

  it("applies seat, score range, run and source row by row, and the sentence counts what it lists", async () => {
    const all = await loadFiltered(index, {rater: "gpt-4", dimension: "goal"});
    const seatOne = await loadFiltered(index, {rater: "gpt-4", dimension: "goal", seat: 1});
    expect(seatOne.rows.length).toBe(all.rows.filter((r) => r.agent === 1).length);
    const high = await loadFiltered(index, {rater: "gpt-4", dimension: "goal", min: 7, max: 10});
    expect(high.rows.length).toBe(all.rows.filter((r) => r.value >= 7 && r.value <= 10).length);
    expect(high.rows.length).toBeGreaterThan(0);
    const source = all.rows[0]!.sources[0]!;
    const fromSource = await loadFiltered(index, {rater: "gpt-4", dimension: "goal", source});
    expect(fromSource.rows.length).toBe(all.rows.filter((r) => r.sources.includes(source)).length);
    const run = all.rows[0]!.runs[0]!;
    expect((await loadFiltered(index, {rater: "gpt-4", dimension: "goal", run})).rows.length).toBe(all.rows.filter((r) => r.runs.includes(run)).length);
    const one = await loadFiltered(index, {rater: "humans", dimension: "goal", model: all.rows[0]!.model});
    const episodes = new Set(one.rows.map((r) => r.episode_id)).size;
    const text = filteredCountText(one, (d) => d.toUpperCase());
    expect(text).toContain(one.rows.length === episodes ? `${episodes} episodes of ${all.rows[0]!.model}` : `${one.rows.length} agents of ${all.rows[0]!.model}, in ${episodes} episodes`);
    expect(text).toContain("rated by the mean of human annotators on GOAL");
  });

  it("says what the store has when the address names a rater, dimension or model it does not", async () => {
    expect((await loadFiltered(index, {rater: "nobody", dimension: "goal"})).refusal).toMatch(/^No rater "nobody" scored SOTOPIA episodes; raters: .*"gpt-4"/);
    expect((await loadFiltered(index, {rater: "gpt-4", dimension: "nosuch"})).refusal).toMatch(/scored no dimension "nosuch"; its dimensions: .*"goal"/);
    expect((await loadFiltered(index, {rater: "gpt-4", dimension: "goal", model: "nosuch"})).refusal).toMatch(/no agent of model "nosuch"/);
    expect((await loadFiltered(index, {model: "gpt-4"})).refusal).toMatch(/needs a rater/);
    expect((await loadFiltered(index, {benchmark: "hsii", rater: "gpt-4"})).refusal).toMatch(/SOTOPIA only so far/);
  });

  it("writes and reads the same filters, keeping an empty partner and dropping what is unset", () => {
    const filters = {benchmark: "sotopia", rater: "humans", dimension: "goal", model: "a b&c", partner: "", seat: 2, min: -1.5, max: 3, run: "r=1", source: "x.jsonl", scenario: "s/1"};
    const href = episodeListHref(filters);
    expect(href.startsWith("./episodes?benchmark=sotopia&rater=humans&dimension=goal&model=a+b%26c&partner=&seat=2")).toBe(true);
    expect(episodeFilters(new URL(href, "http://x/").search)).toEqual({filters, problems: []});
    expect(episodeListHref({})).toBe("./episodes");
    expect(episodeFilters("?seat=first&min=abc").problems).toEqual([
      'seat="first" is not a seat number (1, 2, …); it is ignored.',
      'min="abc" is not a number; it is ignored.',
    ]);
  });
});
