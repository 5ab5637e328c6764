import {describe, expect, it} from "vitest";
import {readdirSync} from "node:fs";
import {join} from "node:path";
import {importFiles} from "../../loaders/import/session.js";
import {rows} from "../../loaders/store/db.js";
import {describeWithFixtures, fixture} from "../helpers/fixtures.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {count, tempStore, writeFile} from "../helpers/store.js";

const OTREE = fixture("sotopia-lab__sotopia-pi/human_eval/otree_project/sotopia_official_study");
const otreeFiles = () => readdirSync(OTREE).flatMap((d) => readdirSync(join(OTREE, d)).map((f) => join(OTREE, d, f)));

describe("sotopia format: public JSONL dump", () => {
  it("stores participants by seat, agent actions, and the judge's scores with rationales", async () => {
    const store = await tempStore();
    const file = writeFile(store.dir, "one.jsonl", jsonl([dumpRecord("ep-1")]));
    const summary = await importFiles(store, "sotopia", [file]);
    expect(summary).toMatchObject({episodes: 1, ratings: 14, rejected: 0});

    expect(await rows(store.conn, "SELECT agent, model, character, goal FROM participants ORDER BY agent")).toEqual([
      {agent: 1, model: "model-a", character: "Ada Lane", goal: "Get the window seat"},
      {agent: 2, model: "model-b", character: "Bo Chen", goal: "Keep the window seat"},
    ]);
    expect(await rows(store.conn, "SELECT seq, turn, agent, action_type, content FROM messages ORDER BY seq")).toEqual([
      {seq: 0, turn: 0, agent: 1, action_type: "speak", content: "Hello there"},
      {seq: 1, turn: 0, agent: 2, action_type: "none", content: ""},
      {seq: 2, turn: 1, agent: 1, action_type: "none", content: ""},
      {seq: 3, turn: 1, agent: 2, action_type: "non-verbal", content: "waves"},
      {seq: 4, turn: 2, agent: 1, action_type: "leave", content: ""},
      {seq: 5, turn: 2, agent: 2, action_type: "none", content: ""},
    ]);
    expect(await rows(store.conn, "SELECT agent, rater, rater_kind, value, rationale FROM ratings WHERE dimension = 'believability' ORDER BY agent")).toEqual([
      {agent: 1, rater: "judge-x", rater_kind: "llm", value: 8, rationale: "natural"},
      {agent: 2, rater: "judge-x", rater_kind: "llm", value: 8, rationale: "stiff"},
    ]);
    // overall_score is derived, so it is not stored as a score of its own.
    expect(await count(store, "SELECT count(*) FROM ratings WHERE dimension = 'overall_score'")).toBe(0);
  });

  it("imports the transcript of an episode whose judge failed, with no scores, and counts it", async () => {
    const store = await tempStore();
    const file = writeFile(store.dir, "failed.jsonl", jsonl([dumpRecord("ep-ok"), dumpRecord("ep-failed", {raw_rewards: [0, 0]})]));
    const summary = await importFiles(store, "sotopia", [file]);
    expect(summary).toMatchObject({episodes: 2, ratings: 14, judgeFailed: 1});
    expect(await count(store, "SELECT count(*) FROM messages WHERE episode_id = 'ep-failed'")).toBe(6);
    expect(await count(store, "SELECT count(*) FROM ratings WHERE episode_id = 'ep-failed'")).toBe(0);
  });
});

describe("sotopia format: EpisodeLog JSON", () => {
  it("reads messages and [overall, scores] rewards, and a bare-number reward as a failed judge", async () => {
    const store = await tempStore();
    const d = dumpRecord("x");
    const log = (pk: string, rewards: unknown) => ({
      pk, environment: "env-1", agents: ["p-ada", "p-bo"], tag: "t", models: ["judge-y", "model-a", "model-b"],
      messages: d.raw_messages, reasoning: d.reasoning, rewards, rewards_prompt: "",
    });
    const ok = writeFile(store.dir, "ok.json", JSON.stringify(log("log-1", d.raw_rewards)));
    const failed = writeFile(store.dir, "failed.json", JSON.stringify(log("log-2", [0.0, 0.0])));
    const summary = await importFiles(store, "sotopia", [ok, failed]);
    expect(summary).toMatchObject({episodes: 2, ratings: 14, judgeFailed: 1});
    expect(await rows(store.conn, "SELECT DISTINCT rater FROM ratings")).toEqual([{rater: "judge-y"}]);
  });
});

describeWithFixtures("sotopia format on real data", () => {
  it("imports the 20 public episodes with 7 dimensions × 2 agents each, judged by gpt-4", async () => {
    const store = await tempStore();
    const summary = await importFiles(store, "sotopia", [fixture("sotopia-lab__sotopia-rl/example_episodes.jsonl")]);
    expect(summary).toMatchObject({episodes: 20, ratings: 280, rejected: 0, judgeFailed: 0});
    expect(await rows(store.conn, "SELECT rater, count(DISTINCT dimension)::INT AS dims, count(*)::INT AS n FROM ratings GROUP BY rater")).toEqual([
      {rater: "gpt-4", dims: 7, n: 280},
    ]);
    // Models per seat follow experiment_model_name_pairs: 11 gpt-4 vs gpt-3.5 episodes, 6 gpt-3.5 self-play, 3 gpt-4 self-play.
    expect(await rows(store.conn, `SELECT list(model ORDER BY agent) AS models, count(*)::INT AS n FROM participants GROUP BY episode_id`).then((r) => r.length)).toBe(20);
    expect(await count(store, "SELECT count(*) FROM participants WHERE model = 'gpt-4'")).toBe(11 + 3 * 2);
    // The first episode: Samuel Anderson's scores, in the log's own numbers.
    expect(await rows(store.conn, `SELECT dimension, value FROM ratings WHERE episode_id = '01H8XWN5V57J20F3JG7WWQKDAC' AND agent = 1 ORDER BY dimension`)).toEqual([
      {dimension: "believability", value: 10}, {dimension: "financial_and_material_benefits", value: -3},
      {dimension: "goal", value: 10}, {dimension: "knowledge", value: 0}, {dimension: "relationship", value: 4},
      {dimension: "secret", value: 0}, {dimension: "social_rules", value: 0},
    ]);
    expect(await count(store, "SELECT count(*) FROM messages WHERE action_type = 'other'")).toBe(0);
  });

  it("imports the 154 partial EpisodeLogs of the annotation study, transcripts taken from the rendered prompt", async () => {
    const store = await tempStore();
    const files = otreeFiles();
    expect(files).toHaveLength(154);
    const summary = await importFiles(store, "sotopia", files);
    expect(summary).toMatchObject({episodes: 154, ratings: 0, rejected: 0});
    expect(await count(store, "SELECT count(DISTINCT episode_id) FROM messages")).toBe(154);
    expect(await count(store, "SELECT count(*) FROM messages WHERE agent IS NULL")).toBe(0);
    expect(await count(store, "SELECT count(*) FROM participants WHERE character IS NULL")).toBe(0);
    // One known episode: the vacation scenario opens with Sasha speaking.
    expect(await rows(store.conn, `SELECT e.scenario, m.agent, m.action_type, left(m.content, 20) AS start FROM episodes e JOIN messages m USING (episode_id)
      WHERE episode_id = '01H7VM65KGGY7842XGE5A7PEK1' AND m.seq = 0`)).toEqual([
      {scenario: "Two people in a romantic relationship are on a vacation", agent: 1, action_type: "speak", start: "Hendrick, darling, I"},
    ]);
    // Its prompt ends on `Turn #8,` (as 27 of the 154 do): the last message is Sasha's utterance alone, without its quotes or the marker.
    expect(await rows(store.conn, `SELECT turn, agent, action_type, content FROM messages
      WHERE episode_id = '01H7VM65KGGY7842XGE5A7PEK1' ORDER BY seq DESC LIMIT 1`)).toEqual([{
      turn: 7, agent: 1, action_type: "speak",
      content: "Thank you, Hendrick. I'm glad we're on the same page. Let's give the firmer mattress a try. And remember, if you're still struggling with your back pain, we can look into other options. The most important thing is that we're both comfortable and can enjoy this vacation together.",
    }]);
    expect(await count(store, String.raw`SELECT count(*) FROM messages WHERE regexp_matches(content, '
Turn #\d+,?$') OR content LIKE '"%"'`)).toBe(0);
    // "Turn #" is left only where a model wrote it inside its utterance: 4 messages of 3 episodes.
    expect(await rows(store.conn, `SELECT episode_id, turn, left(content, 30) AS start FROM messages WHERE content LIKE '%Turn #%' ORDER BY ALL`)).toEqual([
      {episode_id: "01HNBCQQRFA7332019G6ABD7Y6", turn: 4, start: "Strangely, you have exited the"},
      {episode_id: "01HP5KH3R3NWD8BZE9BN0GRPJY", turn: 4, start: "Turn #4: Ethan Smith said: 'Oh"},
      {episode_id: "01HP5KH3R3NWD8BZE9BN0GRPJY", turn: 6, start: "Turn #5: Ethan Smith said: \"Ye"},
      {episode_id: "01HP5P0MBPQ5WN9GSVKAVXFDRY", turn: 5, start: "Turn #5: Eli Dawson \"Well Etha"},
    ]);
    // That first one quotes a whole transcript as `Turn #N: …` lines in a prompt whose markers are `Turn #N` lines: one utterance, not five turns.
    expect(await rows(store.conn, `SELECT list(turn ORDER BY seq) AS turns, list(agent ORDER BY seq) AS agents FROM messages
      WHERE episode_id = '01HNBCQQRFA7332019G6ABD7Y6'`)).toEqual([{turns: [1, 2, 3, 4, 5, 6, 7], agents: [1, 2, 1, 2, 1, 2, 1]}]);
  });
});

describe("sotopia format: a JSON file holding several EpisodeLogs", () => {
  it("accepts or rejects each record on its own under --skip-invalid", async () => {
    const store = await tempStore();
    const d = dumpRecord("x");
    const log = (pk: string, models: unknown) => ({pk, models, messages: d.raw_messages, rewards: d.raw_rewards});
    const file = writeFile(store.dir, "many.json", JSON.stringify([log("a", ["j", "m1", "m2"]), log("b", ["j"]), log("c", ["j", "m1", "m2"])]));
    const summary = await importFiles(store, "sotopia", [file], {skipInvalid: true, rejectsPath: `${store.dir}/r.jsonl`});
    expect(summary).toMatchObject({episodes: 2, rejected: 1});
    expect(await rows(store.conn, "SELECT episode_id FROM episodes ORDER BY 1")).toEqual([{episode_id: "a"}, {episode_id: "c"}]);
  });
});

describe("sotopia dump: a malformed message is named by its place in raw_messages", () => {
  const messages = (second: unknown) => {
    const raw = structuredClone(dumpRecord("x").raw_messages) as unknown[][];
    raw[1][2] = second;
    return raw;
  };
  const cases: {name: string; raw: unknown; field: string; problem: string}[] = [
    {name: "a turn that is not an array", raw: [[], {}], field: "raw_messages[1]", problem: "expected an array, got an object"},
    {name: "a message that is not an array", raw: messages("hi"), field: "raw_messages[1][2]", problem: 'expected an array, got string "hi"'},
    {name: "a message of two items", raw: messages(["Ada Lane", "Environment"]), field: "raw_messages[1][2]", problem: "expected [sender, receiver, text], got 2 items"},
    {name: "a sender that is not a string", raw: messages([7, "Environment", "did nothing"]), field: "raw_messages[1][2][0]", problem: "expected a string, got number 7"},
    {name: "a text that is not a string", raw: messages(["Ada Lane", "Environment", null]), field: "raw_messages[1][2][2]", problem: "expected a string, got null"},
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const store = await tempStore();
      const file = writeFile(store.dir, "m.jsonl", jsonl([dumpRecord("ok"), dumpRecord("bad", {raw_messages: c.raw})]));
      await expect(importFiles(store, "sotopia", [file])).rejects.toMatchObject({line: 2, field: c.field, problem: c.problem});
      expect(await count(store, "SELECT count(*) FROM episodes")).toBe(0);
    });
  }
});
