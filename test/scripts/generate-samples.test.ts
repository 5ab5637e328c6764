import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterAll, describe, expect, it} from "vitest";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {writeSamples} from "../../scripts/generate-samples.js";
import {HUMAN, HUMAN_SEATINGS, humanRatingsCsv, SAMPLE_JUDGE, SAMPLE_MODELS, seatings, sotopiaEpisodes, sotopiaSamples, toJsonl, type SotopiaScores} from "../../scripts/samples/sotopia.js";
import {Random} from "../../scripts/samples/random.js";

const samples = sotopiaSamples({seed: 42});
const {episodes, humanRatings} = samples;
const dims = SOTOPIA_DIMENSIONS;

/** Minimal RFC 4180 reader, enough to check the CSV round-trips. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\n") row.push(field), rows.push(row), (row = []), (field = "");
    else field += c;
  }
  return rows;
}

function expectValidScores(scores: SotopiaScores): void {
  for (const d of dims) {
    const v = scores[d.key as keyof SotopiaScores];
    expect(Number.isInteger(v), `${d.key} = ${v} is not an integer`).toBe(true);
    expect(v, d.key).toBeGreaterThanOrEqual(d.lo);
    expect(v, d.key).toBeLessThanOrEqual(d.hi);
  }
  expect(scores.overall_score).toBeCloseTo(dims.reduce((s, d) => s + scores[d.key as keyof SotopiaScores], 0) / 7, 12);
}

describe("Random", () => {
  it("repeats its stream for a seed and stays in range", () => {
    const a = new Random(7), b = new Random(7), c = new Random(8);
    const draw = (r: Random) => Array.from({length: 50}, () => r.next());
    const xs = draw(a);
    expect(draw(b)).toEqual(xs);
    expect(draw(c)).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const r = new Random("ints");
    const ints = Array.from({length: 2000}, () => r.int(-2, 2));
    expect(new Set(ints)).toEqual(new Set([-2, -1, 0, 1, 2]));
    const normals = Array.from({length: 5000}, () => r.normal(3, 2));
    const mean = normals.reduce((s, x) => s + x, 0) / normals.length;
    expect(mean).toBeCloseTo(3, 0);
    expect(r.ulid(Date.UTC(2023, 8, 1))).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});

describe("sotopiaSamples", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, {recursive: true, force: true})));

  it("writes byte-identical files for the same seed, and different ones for another seed", () => {
    const write = (seed: number) => {
      const dir = mkdtempSync(join(tmpdir(), "sociometer-samples-"));
      dirs.push(dir);
      return writeSamples(dir, seed).files.map((f) => readFileSync(f));
    };
    const [a, b, c] = [write(42), write(42), write(43)];
    a.forEach((buf, i) => expect(buf.equals(b[i]!), `file ${i} differs between two runs`).toBe(true));
    expect(a[0]!.equals(c[0]!)).toBe(false);
    expect(toJsonl(sotopiaSamples({seed: 42}).episodes)).toBe(a[0]!.toString("utf8"));
  });

  it("plays every ordered model seating equally often, plus 8 episodes each of gpt-4 with a human, a human with gpt-4 and two humans, all judged by gpt-4", () => {
    expect(episodes).toHaveLength(208 + 24);
    const counts = new Map<string, number>();
    for (const e of episodes) {
      const [judge, m1, m2] = e.experiment_model_name_pairs;
      expect(judge).toBe(SAMPLE_JUDGE);
      expect(e.experiment_tag).toBe(`synthetic_${judge}_${m1}_${m2}_v1`);
      expect(e.synthetic).toBe(true);
      counts.set(`${m1}|${m2}`, (counts.get(`${m1}|${m2}`) ?? 0) + 1);
    }
    const people = [...HUMAN_SEATINGS].map(([a, b]) => `${a}|${b}`);
    expect(counts.size).toBe(seatings(SAMPLE_MODELS).length + people.length);
    expect(new Set([...counts].filter(([k]) => !people.includes(k)).map(([, n]) => n))).toEqual(new Set([13]));
    expect(people.map((k) => counts.get(k))).toEqual([8, 8, 8]);
    expect(new Set(episodes.map((e) => e.episode_id)).size).toBe(episodes.length);
  });

  it("emits only integer scores in range, overall = mean of the seven, raw_rewards = rewards", () => {
    for (const e of episodes) {
      expect(e.rewards).toHaveLength(2);
      e.rewards.forEach((r, i) => {
        expectValidScores(r);
        const [overall, raw] = e.raw_rewards[i]!;
        expect(raw).toEqual(r);
        expect(overall).toBe(r.overall_score);
      });
    }
  });

  it("has the public dump's fields, in its order, and transcripts of 6–20 acting turns", () => {
    const keys = ["episode_id", "environment_id", "agent_ids", "experiment_tag", "experiment_model_name_pairs", "raw_messages", "raw_rewards",
      "raw_rewards_prompt", "scenario", "codename", "agents_background", "social_goals", "social_interactions", "reasoning", "rewards", "synthetic"];
    const action = /^(said: ".*"|did nothing|\[non-verbal communication\] .+|\[action\] .+|left the conversation)$/s;
    const kinds = new Set<string>();
    for (const e of episodes) {
      expect(Object.keys(e)).toEqual(keys);
      const names = Object.keys(e.agents_background);
      expect(names).toHaveLength(2);
      expect(Object.keys(e.social_goals)).toEqual(names);
      const acting = e.raw_messages.slice(0, -1);
      expect(acting.length).toBeGreaterThanOrEqual(6);
      expect(acting.length).toBeLessThanOrEqual(20);
      acting.forEach((turn, t) => {
        expect(turn.map(([s, r]) => `${s}>${r}`)).toEqual([`Environment>${names[0]}`, `Environment>${names[1]}`, `${names[0]}>Environment`, `${names[1]}>Environment`]);
        expect(turn[0]![2]).toMatch(t === 0 ? /Conversation Starts:\n$/ : new RegExp(`^Turn #${t - 1}: `));
        for (const [, , text] of turn.slice(2)) {
          expect(text).toMatch(action);
          kinds.add(text.split(/[: ]/)[0]!);
        }
      });
      expect(e.raw_messages.at(-1)!.map(([s]) => s)).toEqual(["Environment", "Environment"]);
      expect(e.reasoning).toMatch(/^Environment comments: terminated: .*\nAgent 1 comments:\nbelievability: .*\nAgent 2 comments:\n(.+\n){7}$/s);
    }
    expect(kinds).toEqual(new Set(["said", "did", "[non-verbal", "[action]", "left"]));
  });

  it("has 2–3 human raters on 60 model episodes and on every episode with a human player, each rating all seven dimensions for both agents, in range", () => {
    const byEpisode = new Map<string, Set<string>>();
    for (const r of humanRatings) {
      const dim = dims.find((d) => d.key === r.dimension)!;
      expect(Number.isInteger(r.value) && r.value >= dim.lo && r.value <= dim.hi, `${r.dimension} = ${r.value}`).toBe(true);
      expect(r.rater).toMatch(/^annotator-\d\d$/);
      expect(r.rationale.length).toBeGreaterThan(0);
      let raters = byEpisode.get(r.episode_id);
      if (!raters) byEpisode.set(r.episode_id, (raters = new Set()));
      raters.add(r.rater);
    }
    expect(byEpisode.size).toBe(60 + 24);
    const withPeople = episodes.filter((e) => e.experiment_model_name_pairs.includes(HUMAN));
    expect(withPeople.every((e) => byEpisode.has(e.episode_id))).toBe(true);
    const ids = new Set(episodes.map((e) => e.episode_id));
    for (const [id, raters] of byEpisode) {
      expect(ids.has(id)).toBe(true);
      expect(raters.size).toBeGreaterThanOrEqual(2);
      expect(raters.size).toBeLessThanOrEqual(3);
      expect(humanRatings.filter((r) => r.episode_id === id)).toHaveLength(raters.size * 2 * 7);
    }
  });

  it("writes the human ratings as long CSV that reads back unchanged", () => {
    const rows = readCsv(humanRatingsCsv(humanRatings));
    expect(rows[0]).toEqual(["episode_id", "agent", "dimension", "rater", "value", "rationale"]);
    expect(rows.slice(1)).toEqual(humanRatings.map((r) => [r.episode_id, String(r.agent), r.dimension, r.rater, String(r.value), r.rationale]));
    expect(humanRatings.some((r) => /[",]/.test(r.rationale))).toBe(true); // quoting is exercised
  });

  it("streams realistic-size episodes (~31 KB a line) for benchmarks", () => {
    let bytes = 0, n = 0;
    for (const e of sotopiaEpisodes({seed: 1, count: 64, style: "realistic"})) {
      bytes += Buffer.byteLength(JSON.stringify(e)) + 1;
      n++;
    }
    expect(n).toBe(64);
    expect(bytes / n).toBeGreaterThan(25_000);
    expect(bytes / n).toBeLessThan(40_000);
  });
});
