// Episode runner logic with an in-process Chat: what each agent sees, turn-taking,
// how episodes end, and how unusable answers are re-asked and then recorded.

import {join} from "node:path";
import {beforeAll, describe, expect, it} from "vitest";
import type {Chat, ChatRequest} from "../../loaders/run/chat.js";
import {askValidated} from "../../loaders/run/episodes/answer.js";
import {agentPrompt, checkAction, playEpisode, type EpisodeSetup, type Turn} from "../../loaders/run/episodes/play.js";
import {memoryFor, summaryPrompt} from "../../loaders/run/episodes/lifelong.js";
import {setupOf, sotopiaEpisodeId, sotopiaRecord, sotopiaTasks} from "../../loaders/run/episodes/sotopia.js";
import {seededOrder, stableHash} from "../../loaders/run/episodes/support.js";
import {describeProfile, InputError, loadProfiles, PROFILE_FILES, renderFor, visibleParts, type ProfileSet} from "../../loaders/run/profiles.js";
import {runShape} from "../../loaders/cli/run.js";
import {describeWithFixtures, fixture, REPO} from "../helpers/fixtures.js";
import {tempDir, writeFile} from "../helpers/store.js";
import {copyFileSync, readFileSync, writeFileSync} from "node:fs";

const SAMPLES = join(REPO, "data/samples/profiles");
const profiles = loadProfiles(SAMPLES);

/** A Chat that answers from a script and keeps every request. */
export function scriptedChat(answer: (request: ChatRequest, n: number) => string): {chat: Chat; requests: ChatRequest[]} {
  const requests: ChatRequest[] = [];
  const chat: Chat = async (request) => {
    requests.push(request);
    const text = answer(request, requests.length - 1);
    return {text, promptTokens: 10, completionTokens: 5, cached: false};
  };
  return {chat, requests};
}

const say = (text: string) => JSON.stringify({action_type: "speak", argument: text});
const taskOf = (comboId: string) => sotopiaTasks(profiles, {seed: 1, comboIds: [comboId]})[0]!;
const promptText = (setup: EpisodeSetup, seat: 0 | 1, turns: Turn[] = []) => agentPrompt(setup, seat, turns, 20).map((m) => m.content).join("\n");

describe("what each agent sees (SOTOPIA §2.1)", () => {
  it("friends: own goal, hint and secret, the other's whole profile but not their goal, hint or secret", () => {
    const setup = setupOf(taskOf("synthetic-combo-1"), ["m1", "m2"]); // Mira (seat 1) and Tomas, friends
    const mira = promptText(setup, 0);
    expect(mira).toContain("Get your friend to pay back half of the cabin cost this week");
    expect(mira).toContain("you paid 400 in total"); // her goal's extra information, shown without its tag
    expect(mira).not.toContain("<extra_info>");
    expect(mira).not.toContain("Delay paying your share"); // Tomas's goal
    expect(mira).not.toContain("offer something else"); // Tomas's hint
    expect(mira).toContain("She failed her first licensing exam"); // her own secret
    expect(mira).not.toContain("owes a large sum"); // his secret
    for (const visible of ["Tomas Lindqvist", "Age: 41", "Carpenter", "He/him", "reclaimed wood", "likes to win a bargain", "ESTP", "Spontaneous"]) {
      expect(mira).toContain(visible);
    }
    const tomas = promptText(setup, 1);
    expect(tomas).toContain("Delay paying your share until next month");
    expect(tomas).toContain("offer something else in the meantime");
    expect(tomas).not.toContain("pay back half");
    expect(tomas).not.toContain("you paid 400");
    expect(tomas).not.toContain("licensing exam");
    expect(tomas).toContain("owes a large sum");
  });

  it("acquaintances: name, occupation, pronouns and public information only", () => {
    const setup = setupOf(taskOf("synthetic-combo-4"), ["m1", "m2"]); // Tomas (seat 1) and Jules
    expect(setup.relationship).toBe("acquaintance");
    const tomas = promptText(setup, 0);
    for (const visible of ["Jules Moreau", "Bakery owner", "They/them", "corner bakery for twenty years"]) expect(tomas).toContain(visible);
    for (const hidden of ["Age: 52", "Nonbinary", "practical and blunt", "ISTJ", "Tradition", "Cautious", "bankruptcy"]) expect(tomas).not.toContain(hidden);
  });

  it("strangers: nothing of the other's profile, not even the name; environment-only facts stay hidden", () => {
    const setup = setupOf(taskOf("synthetic-combo-3"), ["m1", "m2"]); // Priya (seat 1) and Jules at the bus stop
    expect(setup.relationship).toBe("stranger");
    const turns: Turn[] = [{turn: 0, agent: 1, type: "speak", content: "Hi"}, {turn: 1, agent: 2, type: "non-verbal", content: "nods"}];
    const priya = promptText(setup, 0, turns);
    for (const hidden of ["Jules", "Moreau", "Bakery", "They/them", "bankruptcy", "The last bus has already left"]) expect(priya).not.toContain(hidden);
    expect(priya).toContain("You know nothing about them beyond what the scenario says.");
    expect(priya).toContain("Turn 1: Priya Raman said: \"Hi\"");
    expect(priya).toContain("Turn 2: The other person [non-verbal communication] nods");
    expect(priya).toContain("Two people wait at a bus stop late in the evening.");
  });

  it("know-by-name shows the name only; family, friends and partners everything but the secret", () => {
    expect(visibleParts("stranger")).toEqual([]);
    expect(visibleParts("know_by_name")).toEqual(["name"]);
    expect(visibleParts("acquaintance")).toEqual(["name", "occupation", "pronouns", "public_info"]);
    for (const r of ["friend", "romantic", "family"] as const) {
      expect(visibleParts(r)).not.toContain("secret");
      expect(visibleParts(r)).toHaveLength(9);
    }
    const jules = profiles.characters.get("synthetic-agent-jules")!;
    expect(describeProfile(jules, visibleParts("know_by_name"))).toEqual(["Name: Jules Moreau"]);
  });

  it("lifelong summaries (both agents' memory) of strangers: public scenario text only, no names, each reader told who is who", () => {
    const setup = {...setupOf(taskOf("synthetic-combo-3"), ["m1", "m2"]), memory: [null, null] as [null, null]}; // Priya and Jules, strangers
    const turns: Turn[] = [{turn: 0, agent: 1, type: "speak", content: "Cold tonight"}, {turn: 1, agent: 2, type: "none", content: ""}];
    const played = {turns, ended: "max_turns" as const, failure: null, requests: 2, promptTokens: 0, completionTokens: 0};
    const prompt = summaryPrompt(setup, played).map((m) => m.content).join("\n");
    // The scenario's environment-only fact and both names (neither may know the other's) stay out.
    for (const hidden of ["The last bus has already left", "Priya", "Raman", "Jules", "Moreau"]) expect(prompt).not.toContain(hidden);
    expect(prompt).toContain("Scenario: Two people wait at a bus stop late in the evening.");
    expect(prompt).toContain("People: Person 1 and Person 2");
    expect(prompt).toContain('Turn 1: Person 1 said: "Cold tonight"');
    expect(prompt).toContain("Turn 2: Person 2 did nothing");
    const past = [{setup, played, summary: "Person 1 talked about the cold."}];
    expect(memoryFor(past, 1, "summary")).toBe("In these notes you are Person 2 and the other person is Person 1.\n\nEpisode 1: Person 1 talked about the cold.");
    // Friends know each other's names: the summary names them, and the notes need no key.
    const friends = {...setupOf(taskOf("synthetic-combo-1"), ["m1", "m2"]), memory: [null, null] as [null, null]};
    expect(summaryPrompt(friends, played)[1]!.content).toContain("People: Mira");
    expect(memoryFor([{setup: friends, played, summary: "S"}], 0, "summary")).toBe("Episode 1: S");
  });

  it("renders sotopia's viewer tags and hints for the one who reads", () => {
    const text = 'A party. <p viewer="environment">They share a friend: Alvin.</p> (<extra_info>Extra: 5 points.</extra_info><strategy_hint>Hint: ask.</strategy_hint>)';
    expect(renderFor(text, "agent_0")).toBe("A party. (Extra: 5 points. Hint: ask.)");
    expect(renderFor(text, "environment")).toBe("A party. They share a friend: Alvin. (Extra: 5 points. Hint: ask.)");
  });
});

describe("turn-taking and endings (SOTOPIA §2.2)", () => {
  const setup = setupOf(taskOf("synthetic-combo-1"), ["model-a", "model-b"]);
  const options = {maxTurns: 20, maxAttempts: 3, template: "t"};

  it("agent 1 acts first, then they alternate; each sees the transcript so far", async () => {
    const {chat, requests} = scriptedChat((r, n) => (n === 3 ? JSON.stringify({action_type: "leave", argument: ""}) : say(`line ${n + 1} from ${r.model}`)));
    const played = await playEpisode(chat, setup, options);
    expect(requests.map((r) => r.model)).toEqual(["model-a", "model-b", "model-a", "model-b"]);
    expect(played.turns.map((t) => [t.turn, t.agent, t.type])).toEqual([[0, 1, "speak"], [1, 2, "speak"], [2, 1, "speak"], [3, 2, "leave"]]);
    const third = requests[2]!.messages[1]!.content; // Mira before turn 3
    expect(third).toContain('Turn 1: Mira Okafor said: "line 1 from model-a"');
    expect(third).toContain('Turn 2: Tomas Lindqvist said: "line 2 from model-b"');
    expect(third).toContain("It is turn 3 of at most 20.");
    expect(requests.every((r) => r.json === true && r.template === "t")).toBe(true);
  });

  it("leaving ends the episode at once", async () => {
    const {chat, requests} = scriptedChat((_, n) => (n === 1 ? JSON.stringify({action_type: "leave", argument: "Bye."}) : say("hello")));
    const played = await playEpisode(chat, setup, options);
    expect(requests).toHaveLength(2);
    expect(played.ended).toBe("leave");
    expect(played.turns.at(-1)).toEqual({turn: 1, agent: 2, type: "leave", content: "Bye."});
    const record = sotopiaRecord(taskOf("synthetic-combo-1"), played, {runId: "r", models: ["model-a", "model-b"], maxTurns: 20});
    expect(record.settings).toMatchObject({ended: "leave", left_by: 2});
  });

  it("stops at the turn limit, counting both agents' turns", async () => {
    const {chat, requests} = scriptedChat(() => JSON.stringify({action_type: "none", argument: "ignored"}));
    const played = await playEpisode(chat, setup, {...options, maxTurns: 5, maxStaleTurns: 5});
    expect(requests).toHaveLength(5);
    expect(played.ended).toBe("max_turns");
    expect(played.turns.map((t) => t.agent)).toEqual([1, 2, 1, 2, 1]);
    expect(played.turns.every((t) => t.type === "none" && t.content === "")).toBe(true);
    expect(played.promptTokens).toBe(50);
  });

  it("ends after more than --max-stale-turns (2, as sotopia) `none` actions in a row; any other action resets the count", async () => {
    const none = JSON.stringify({action_type: "none", argument: ""});
    // speak, none, none, speak, none, none, none → ends at the third none in a row (turn 7), not at the turn limit.
    const script = ["hi", null, null, "still there?", null, null, null, "never asked"];
    const {chat, requests} = scriptedChat((_, n) => (script[n] === null ? none : say(script[n]!)));
    const played = await playEpisode(chat, setup, options);
    expect(requests).toHaveLength(7);
    expect(played.ended).toBe("stale");
    expect(played.turns.map((t) => t.type)).toEqual(["speak", "none", "none", "speak", "none", "none", "none"]);
    const record = sotopiaRecord(taskOf("synthetic-combo-1"), played, {runId: "r", models: ["model-a", "model-b"], maxTurns: 20});
    expect(record.settings).toMatchObject({ended: "stale", max_stale_turns: 2});
    // --max-stale-turns 0: the first none ends it; a larger value lets more through.
    expect((await playEpisode(scriptedChat(() => none).chat, setup, {...options, maxStaleTurns: 0})).turns).toHaveLength(1);
    expect((await playEpisode(scriptedChat(() => none).chat, setup, {...options, maxStaleTurns: 4})).turns).toHaveLength(5);
  });

  it("re-asks after an unusable answer, telling the model what was wrong", async () => {
    const {chat, requests} = scriptedChat((_, n) => (n === 1 ? "Sure! I'd smile." : n === 3 ? JSON.stringify({action_type: "leave"}) : say("ok")));
    const played = await playEpisode(chat, setup, options);
    expect(played.turns.map((t) => t.agent)).toEqual([1, 2, 1]); // the retried answer counts as Tomas's turn 2
    const retry = requests[2]!;
    expect(retry.model).toBe("model-b");
    expect(retry.messages.slice(-2)[0]).toEqual({role: "assistant", content: "Sure! I'd smile."});
    expect(retry.messages.at(-1)!.content).toMatch(/^That answer could not be used: it is not valid JSON/);
    expect(played.requests).toBe(4);
  });

  it("records an agent that never answers usably as a failure, with every answer, and invents no turn", async () => {
    const bad = ['{"action_type": "dance", "argument": "a jig"}', '{"action_type": "speak"}', "```json\n[1, 2]\n```"];
    const {chat, requests} = scriptedChat((_, n) => (n === 0 ? say("Hi Tomas") : bad[n - 1]!));
    const played = await playEpisode(chat, setup, options);
    expect(requests).toHaveLength(4);
    expect(played.ended).toBe("failed");
    expect(played.turns).toHaveLength(1);
    expect(played.failure).toEqual({
      agent: 2, turn: 1,
      attempts: [
        {answer: bad[0], problem: `"action_type" must be one of "speak", "non-verbal communication", "action", "none", "leave", not "dance"`},
        {answer: bad[1], problem: `"argument" must say what you say for action_type "speak"`},
        {answer: bad[2], problem: "it is JSON but not an object"},
      ],
    });
    const record = sotopiaRecord(taskOf("synthetic-combo-1"), played, {runId: "r", models: ["model-a", "model-b"], maxTurns: 20});
    expect(record.messages).toEqual([{turn: 0, agent: 1, action_type: "speak", content: "Hi Tomas"}]);
    expect(record.settings).toMatchObject({ended: "failed", failure: {agent: 2, turn: 1}});
  });

  it("an endpoint error is not an answer: it propagates", async () => {
    const chat: Chat = async () => {
      throw new Error("HTTP 500");
    };
    await expect(askValidated(chat, {model: "m", messages: []}, checkAction, 3)).rejects.toThrow("HTTP 500");
  });
});

describe("checking an action", () => {
  it("accepts the five types and a fenced object; asks for text where the type needs it", () => {
    const ok = (text: string) => checkAction(text);
    expect(ok('```json\n{"action_type": "non-verbal communication", "argument": "smiles"}\n```')).toEqual({value: {type: "non-verbal", argument: "smiles"}});
    expect(ok('{"action_type": "action", "argument": " opens the door "}')).toEqual({value: {type: "action", argument: "opens the door"}});
    expect(ok('{"action_type": "leave"}')).toEqual({value: {type: "leave", argument: ""}});
    expect(ok('{"action_type": "none", "argument": "thinking"}')).toEqual({value: {type: "none", argument: ""}});
    expect(ok('{"action_type": "Speak", "argument": "Hi"}')).toEqual({value: {type: "speak", argument: "Hi"}});
    expect(ok('{"action_type": "speak", "argument": "   "}')).toEqual({problem: `"argument" must say what you say for action_type "speak"`});
    expect(ok('{"action_type": "speak", "argument": 3}')).toEqual({problem: `"argument" must be a string`});
    expect(ok('{"argument": "Hi"}')).toEqual({problem: `"action_type" is missing or not a string`});
    expect(ok("")).toEqual({problem: "the answer is empty"});
    expect("problem" in ok("I say hello")).toBe(true);
  });
});

describe("tasks and ids", () => {
  it("the seeded order is stable and independent of the other items", () => {
    const ids = ["a", "b", "c", "d", "e"];
    const order = seededOrder(ids, 7, (x) => x);
    expect(seededOrder([...ids].reverse(), 7, (x) => x)).toEqual(order);
    expect(seededOrder(ids.filter((x) => x !== "c"), 7, (x) => x)).toEqual(order.filter((x) => x !== "c"));
    expect(seededOrder(ids, 8, (x) => x)).not.toEqual(order);
  });

  it("episode ids follow scenario, characters, models, repetition and run", () => {
    const [t1, t2] = sotopiaTasks(profiles, {seed: 1, comboIds: ["synthetic-combo-2"], repeats: 2});
    const id = sotopiaEpisodeId(t1!, "run1", ["a", "b"]);
    expect(sotopiaEpisodeId(sotopiaTasks(profiles, {seed: 99, comboIds: ["synthetic-combo-2"]})[0]!, "run1", ["a", "b"])).toBe(id);
    expect(id).toMatch(/^sotopia-run1-[0-9a-f]{12}$/);
    expect(new Set([id, sotopiaEpisodeId(t2!, "run1", ["a", "b"]), sotopiaEpisodeId(t1!, "run2", ["a", "b"]), sotopiaEpisodeId(t1!, "run1", ["b", "a"])]).size).toBe(4);
  });

  it("the run id follows what shapes requests: the profiles' content, not their path, nor the selection", () => {
    const copy = tempDir();
    for (const f of Object.values(PROFILE_FILES)) copyFileSync(join(SAMPLES, f), join(copy, f));
    const shape = (kind: "sotopia" | "lifelong", o: Partial<Parameters<typeof runShape>[1]> = {}) =>
      stableHash(runShape(kind, {endpoint: "http://127.0.0.1:11434/v1", seats: ["a", "b"], maxTurns: 20, retries: 2, memory: "full", seed: "1", profilesDir: SAMPLES, ...o}));
    expect(shape("sotopia", {profilesDir: copy})).toBe(shape("sotopia"));
    expect(shape("sotopia", {seed: "7"})).toBe(shape("sotopia")); // sotopia's seed only picks combos
    expect(shape("lifelong", {seed: "7"})).not.toBe(shape("lifelong")); // a chain's scenario order is what the agents remember
    expect(shape("sotopia", {maxTurns: 10})).not.toBe(shape("sotopia"));
    expect(shape("sotopia", {maxStaleTurns: 5})).not.toBe(shape("sotopia"));
    expect(shape("lifelong", {maxStaleTurns: 2})).toBe(shape("lifelong")); // 2 is the default
    expect(shape("sotopia", {endpoint: "http://127.0.0.1:8000/v1"})).not.toBe(shape("sotopia"));
    expect(shape("lifelong", {memory: "summary"})).not.toBe(shape("lifelong"));
    const characters = join(copy, PROFILE_FILES.characters);
    writeFileSync(characters, readFileSync(characters, "utf8").replace("Night-shift nurse", "Day-shift nurse"));
    expect(shape("sotopia", {profilesDir: copy})).not.toBe(shape("sotopia"));
  });

  it("--limit takes the first combos of the seeded order; unknown combos are named", () => {
    expect(sotopiaTasks(profiles, {seed: 1, limit: 2})).toHaveLength(2);
    expect(sotopiaTasks(profiles, {seed: 1, limit: 2, repeats: 3})).toHaveLength(6);
    expect(() => sotopiaTasks(profiles, {seed: 1, comboIds: ["nope"]})).toThrow(/no combo nope/);
  });

  it("a bad profile line stops with file, line and field", () => {
    const dir = tempDir();
    for (const f of ["environment_profiles.jsonl", "env_agent_combo_storages.jsonl", "relationship_profiles.jsonl"]) copyFileSync(join(SAMPLES, f), join(dir, f));
    const lines = [
      '{"agent_id": "synthetic-agent-mira", "first_name": "Mira"}',
      '{"agent_id": "synthetic-agent-tomas", "first_name": "Tomas", "age": "forty"}',
    ];
    writeFile(dir, "agent_profiles.jsonl", lines.join("\n") + "\n");
    const e = (() => {
      try {
        loadProfiles(dir);
      } catch (x) {
        return x;
      }
    })() as InputError;
    expect(e).toBeInstanceOf(InputError);
    expect(e.message).toBe(`${join(dir, "agent_profiles.jsonl")}:2: age: expected a number, got string "forty"`);
  });
});

describeWithFixtures("the real SOTOPIA profiles (sotopia-space)", () => {
  let real: ProfileSet;
  beforeAll(() => {
    real = loadProfiles(fixture("sotopia-lab__sotopia-space", "profiles"));
  });

  it("hold 40 characters, 90 scenarios, 450 combos and 120 relationships, every reference resolved", () => {
    expect([real.characters.size, real.scenarios.size, real.combos.length, real.relationships.length]).toEqual([40, 90, 450, 120]);
    const byLevel = new Map<string, number>();
    for (const s of real.scenarios.values()) byLevel.set(s.relationship, (byLevel.get(s.relationship) ?? 0) + 1);
    expect(Object.fromEntries(byLevel)).toEqual({friend: 46, stranger: 25, acquaintance: 10, romantic: 5, know_by_name: 4});
  });

  it("a strangers' combo hides the partner's name and profile, and neither goal leaks", () => {
    const task = sotopiaTasks(real, {seed: 1}).find((t) => t.scenario.relationship === "stranger")!;
    const setup = setupOf(task, ["a", "b"]);
    const [one, two] = task.characters;
    const p1 = promptText(setup, 0);
    expect(p1).toContain(`${one.firstName} ${one.lastName}`);
    expect(p1).not.toContain(two.firstName);
    expect(p1).not.toContain(two.occupation!);
    expect(p1).toContain(renderFor(task.scenario.goals[0], "agent_0"));
    expect(p1).not.toContain(renderFor(task.scenario.goals[1], "agent_1"));
  });
});
