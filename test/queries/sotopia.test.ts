// The statistics SQL must agree with the library formulas applied to instance rows.

import {readFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {SOTOPIA_STATS_SQL, SOTOPIA_TASKS_SQL, WORDS_PER_TURN_SQL} from "../../loaders/queries/sotopia.js";
import {importFiles} from "../../loaders/import/session.js";
import {rows} from "../../loaders/store/db.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {modelAggregates, overallScore, taskLabel, wordsPerTurn, type SotopiaStatRow, type TaskInfo} from "../../src/lib/sotopia.js";
import {mean, sd} from "../../src/lib/stats.js";
import {describeWithFixtures, fixture} from "../helpers/fixtures.js";
import {tempSotopiaPiStore, tempStore} from "../helpers/store.js";

const REPO = join(import.meta.dirname, "..", "..");

describeWithFixtures("SOTOPIA_STATS_SQL on the 20 real episodes", () => {
  it("gives the same per-model means, sds and overall as the library over instance rows", async () => {
    const store = await tempStore();
    await importFiles(store, "sotopia", [fixture("sotopia-lab__sotopia-rl/example_episodes.jsonl")]);
    const stats = await rows<SotopiaStatRow>(store.conn, SOTOPIA_STATS_SQL);
    const instances = await rows<{episode_id: string; agent: number; model: string; dimension: string; value: number}>(store.conn,
      "SELECT r.episode_id, r.agent, p.model, r.dimension, r.value FROM ratings r JOIN participants p USING (episode_id, agent)");

    // Independent path: group instance rows in TypeScript, compute overall per instance with overallScore.
    const byInstance = new Map<string, {model: string; scores: Record<string, number>}>();
    for (const r of instances) {
      const key = `${r.episode_id}/${r.agent}`;
      const entry = byInstance.get(key) ?? {model: r.model, scores: {}};
      entry.scores[r.dimension] = r.value;
      byInstance.set(key, entry);
    }
    const expected: {model: string; dimension: string; n: number; mean: number; sd: number}[] = [];
    for (const model of ["gpt-3.5-turbo", "gpt-4"]) {
      const mine = [...byInstance.values()].filter((i) => i.model === model);
      for (const d of [...SOTOPIA_DIMENSIONS.map((x) => x.key), "overall"]) {
        const values = mine.map((i) => (d === "overall" ? overallScore(i.scores) : i.scores[d]));
        expected.push({model, dimension: d, n: values.length, mean: mean(values), sd: sd(values)});
      }
    }
    const got = modelAggregates(stats, {rater: "gpt-4"});
    expect(got.map((g) => [g.model, g.dimension, g.n])).toEqual(expected.map((e) => [e.model, e.dimension, e.n]));
    got.forEach((g, i) => {
      expect(g.mean).toBeCloseTo(expected[i].mean, 10);
      expect(g.sd).toBeCloseTo(expected[i].sd, 10);
    });
    // 11 gpt-4 vs gpt-3.5 + 3 gpt-4 self-play episodes → gpt-4 plays 17 seats; gpt-3.5 plays 23.
    expect(got.filter((g) => g.dimension === "goal").map((g) => g.n)).toEqual([23, 17]);
  });
});

describeWithFixtures("WORDS_PER_TURN_SQL on the 20 real episodes", () => {
  it("counts whitespace-separated words of spoken turns like a plain split does", async () => {
    const store = await tempStore();
    await importFiles(store, "sotopia", [fixture("sotopia-lab__sotopia-rl/example_episodes.jsonl")]);
    const got = await rows<{model: string; turns: number; words: number}>(store.conn, WORDS_PER_TURN_SQL);
    const spoken = await rows<{model: string; content: string}>(store.conn,
      "SELECT p.model, m.content FROM messages m JOIN participants p USING (episode_id, agent) WHERE m.action_type = 'speak'");
    const expected = new Map<string, {turns: number; words: number}>();
    for (const s of spoken) {
      const words = s.content.trim().split(/\s+/).filter(Boolean).length;
      if (!words) continue;
      const e = expected.get(s.model) ?? {turns: 0, words: 0};
      e.turns++;
      e.words += words;
      expected.set(s.model, e);
    }
    expect(got).toEqual([...expected.entries()].sort().map(([model, e]) => ({model, ...e})));
    expect(got.every((g) => wordsPerTurn(g) > 20)).toBe(true);
  });
});

describeWithFixtures("the `humans` pseudo-rater on the real annotation study", () => {
  it("scores each instance with the mean over its annotators (a rater's repeated responses averaged first)", async () => {
    const store = await tempSotopiaPiStore();
    const stats = await rows<SotopiaStatRow>(store.conn, SOTOPIA_STATS_SQL);
    const raw = await rows<{episode_id: string; agent: number; model: string; dimension: string; rater: string; value: number}>(store.conn,
      "SELECT r.episode_id, r.agent, p.model, r.dimension, r.rater, r.value FROM ratings r JOIN participants p USING (episode_id, agent)");
    // Independent path: average per (instance, rater), then over raters, then over a model's instances.
    const perRater = new Map<string, {model: string; dimension: string; instance: string; values: number[]}>();
    for (const r of raw) {
      const key = `${r.episode_id}/${r.agent}/${r.dimension}/${r.rater}`;
      const e = perRater.get(key) ?? {model: r.model, dimension: r.dimension, instance: `${r.episode_id}/${r.agent}/${r.dimension}`, values: []};
      e.values.push(r.value);
      perRater.set(key, e);
    }
    const perInstance = new Map<string, {model: string; dimension: string; values: number[]}>();
    for (const e of perRater.values()) {
      const i = perInstance.get(e.instance) ?? {model: e.model, dimension: e.dimension, values: []};
      i.values.push(mean(e.values));
      perInstance.set(e.instance, i);
    }
    const got = modelAggregates(stats, {rater: "humans"}).filter((a) => a.dimension !== "overall");
    for (const a of got) {
      const values = [...perInstance.values()].filter((i) => i.model === a.model && i.dimension === a.dimension).map((i) => mean(i.values));
      expect(a.n, `${a.model} ${a.dimension}`).toBe(values.length);
      expect(a.mean).toBeCloseTo(mean(values), 12);
    }
    expect(got.length).toBe(7 * new Set(raw.map((r) => r.model)).size);
  });
});

describe("SOTOPIA_TASKS_SQL on the sample episodes", () => {
  it("names every task of the statistics by the dump's codename and the characters in the order of its profile ids", async () => {
    const file = join(REPO, "data", "samples", "sotopia", "episodes.jsonl");
    const store = await tempStore();
    await importFiles(store, "sotopia", [file]);
    const tasks = await rows<TaskInfo & {episodes: number}>(store.conn, SOTOPIA_TASKS_SQL);
    const stats = await rows<SotopiaStatRow>(store.conn, SOTOPIA_STATS_SQL);
    const byId = new Map(tasks.map((t) => [t.task_id, t]));
    expect(new Set(stats.map((s) => s.task_id)).size).toBe(tasks.length);
    for (const s of stats) expect(byId.has(s.task_id), s.task_id).toBe(true);

    // Independently from the dump: environment_id | sorted agent ids, and the names of the agents in that order.
    const expected = new Map<string, {codename: string; characters: string; episodes: number}>();
    for (const line of readFileSync(file, "utf8").trim().split("\n")) {
      const e = JSON.parse(line) as {environment_id: string; agent_ids: string[]; codename: string; agents_background: Record<string, string>};
      const names = Object.keys(e.agents_background);
      const seats = e.agent_ids.map((id, i) => ({id, name: names[i]!})).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const id = `${e.environment_id} | ${seats.map((x) => x.id).join(" & ")}`;
      const known = expected.get(id);
      expected.set(id, {codename: e.codename, characters: seats.map((x) => x.name).join(" & "), episodes: (known?.episodes ?? 0) + 1});
    }
    expect(tasks.map((t) => [t.task_id, t.codename, t.characters, t.episodes]))
      .toEqual([...expected.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([id, x]) => [id, x.codename, x.characters, x.episodes]));
    expect(taskLabel(byId.get(tasks[0]!.task_id), tasks[0]!.task_id)).toMatch(/^synthetic_[a-z_]+: [A-Z].* & [A-Z]/);
  });
});
