import {describe, expect, it} from "vitest";
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {episodeFromCanonical} from "../../loaders/import/canonical.js";
import {ImportError} from "../../loaders/import/errors.js";
import {importFiles} from "../../loaders/import/session.js";
import {rows} from "../../loaders/store/db.js";
import type {JsonObject} from "../../loaders/import/validate.js";
import {REPO} from "../helpers/fixtures.js";
import {jsonl} from "../helpers/episodes.js";
import {snapshot, tempStore, writeFile} from "../helpers/store.js";

const episode = (overrides: Record<string, unknown> = {}) => ({
  episode_id: "c-1",
  benchmark: "sotopia",
  scenario: "A negotiation",
  participants: [{model: "m-1", character: "Ann"}, {model: "human", character: "Ben"}],
  messages: [{agent: 1, content: "Hi"}, {agent: 2, action_type: "leave"}],
  ratings: [{agent: 1, dimension: "goal", rater: "judge", rater_kind: "llm", value: 9, rationale: "done"}],
  ...overrides,
});

describe("canonical format", () => {
  it("imports an episode with defaults for turn and action type", async () => {
    const store = await tempStore();
    await importFiles(store, "canonical", [writeFile(store.dir, "c.jsonl", jsonl([episode()]))]);
    expect(await rows(store.conn, "SELECT seq, turn, agent, action_type, content FROM messages ORDER BY seq")).toEqual([
      {seq: 0, turn: 0, agent: 1, action_type: "speak", content: "Hi"},
      {seq: 1, turn: 1, agent: 2, action_type: "leave", content: ""},
    ]);
    expect(await rows(store.conn, "SELECT model FROM participants ORDER BY agent")).toEqual([{model: "m-1"}, {model: "human"}]);
  });

  it.each([
    [{ratings: [{agent: 3, dimension: "goal", rater: "j", rater_kind: "llm", value: 1}]}, "ratings[0].agent", "expected a seat from 1 to 2"],
    [{ratings: [{agent: 1, dimension: "goal", rater: "j", rater_kind: "llm", value: -1}]}, "ratings[0].value", "-1 is outside GOAL's range [0, 10]"],
    [{ratings: [{agent: 1, dimension: "goal", rater: "j", rater_kind: "robot", value: 1}]}, "ratings[0].rater_kind", "expected one of llm, human, rule"],
    [{participants: []}, "participants", "needs at least one participant"],
    [{messages: [{agent: 1, action_type: "shout"}]}, "messages[0].action_type", "expected one of"],
    [{chain_index: 1.5}, "chain_index", "expected a whole number from -2147483648 to 2147483647, got 1.5"],
  ])("rejects %j", async (overrides, field, problem) => {
    const store = await tempStore();
    const before = await snapshot(store);
    const e = await importFiles(store, "canonical", [writeFile(store.dir, "c.jsonl", jsonl([episode(overrides)]))]).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(ImportError);
    expect((e as ImportError).field).toBe(field);
    expect((e as ImportError).problem).toContain(problem);
    expect(await snapshot(store)).toEqual(before);
  });

  it("rejects a record missing any field the JSON Schema marks required, naming that field", () => {
    const schema = JSON.parse(readFileSync(join(REPO, "docs/schema/episode.schema.json"), "utf8"));
    const without = (o: object, field: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== field));
    for (const field of schema.required as string[]) {
      expect(() => episodeFromCanonical(without(episode(), field) as JsonObject), field).toThrow(expect.objectContaining({field}));
    }
    for (const field of schema.properties.ratings.items.required as string[]) {
      const record = episode({ratings: [without(episode().ratings[0], field)]}) as unknown as JsonObject;
      expect(() => episodeFromCanonical(record), field).toThrow(expect.objectContaining({field: `ratings[0].${field}`}));
    }
  });
});
