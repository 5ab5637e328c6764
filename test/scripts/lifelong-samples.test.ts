import {describe, expect, it} from "vitest";
import {CHAIN_LENGTH, HARDER, lifelongSamples} from "../../scripts/samples/lifelong.js";
import {mean} from "../../src/lib/stats.js";

const records = lifelongSamples(42);

describe("lifelongSamples", () => {
  it("is deterministic and has 3 models × 2 memory modes × 3 pairs × (40 + 5) episodes", () => {
    expect(JSON.stringify(lifelongSamples(42))).toBe(JSON.stringify(records));
    expect(records).toHaveLength(3 * 2 * 3 * (CHAIN_LENGTH + HARDER));
    expect(new Set(records.map((r) => r.episode_id)).size).toBe(records.length);
    expect(records.every((r) => r.harder === r.chain_index > CHAIN_LENGTH && r.synthetic)).toBe(true);
  });

  it("gives every judge rating BEL and GOAL in range and eight 0/1 labels, and human labels on a subset", () => {
    for (const r of records) {
      for (const x of r.ratings) {
        expect(x.checkpoints).toHaveLength(8);
        expect(x.checkpoints.every((v) => v === 0 || v === 1)).toBe(true);
        if (x.scores) for (const v of Object.values(x.scores)) expect(Number.isInteger(v) && v >= 0 && v <= 10).toBe(true);
      }
    }
    const human = records.filter((r) => r.ratings.some((x) => x.rater_kind === "human")).length / records.length;
    expect(human).toBeGreaterThan(0.1);
    expect(human).toBeLessThan(0.2);
  });

  it("declines along the chain with the whole history as memory, holds with summaries, and loses GOAL on the harder scenarios", () => {
    const bel = (memory: string, index: number) => mean(records.filter((r) => r.memory_mode === memory && r.chain_index === index).flatMap((r) => r.ratings.filter((x) => x.scores).map((x) => x.scores!.believability)));
    const goal = (memory: string, harder: boolean) => mean(records.filter((r) => r.memory_mode === memory && r.harder === harder).flatMap((r) => r.ratings.filter((x) => x.scores).map((x) => x.scores!.goal)));
    expect(bel("full", 1) - bel("full", CHAIN_LENGTH)).toBeGreaterThan(2);
    expect(Math.abs(bel("summary", 1) - bel("summary", CHAIN_LENGTH))).toBeLessThan(1.5);
    expect(goal("summary", false) - goal("summary", true)).toBeGreaterThan(2);
  });
});
