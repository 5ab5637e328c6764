import {describe, expect, it} from "vitest";
import {normaliseName, parseResponse, targetMatches} from "../../src/lib/hsii-response.js";

// [response, expected target, expected utterance (prefix is enough), route] — or [response, null] when stage 1 must fail.
const CASES: [string, string | null, string?, string?][] = [
  ['{"target": "Alice", "utterance": "Could you check the budget?"}', "Alice", "Could you check the budget?", "json"],
  ["{'target': 'Alice', 'utterance': 'Could you check the budget?'}", "Alice", "Could you check the budget?", "json"],
  ['```json\n{"target": "Bob", "utterance": "Hi Bob, one question."}\n```', "Bob", "Hi Bob, one question.", "json"],
  ['```\n{"target": "Bob", "utterance": "Hi Bob.",}\n```', "Bob", "Hi Bob.", "json"],
  ['{"target": "Bob", "utterance": "Hi Bob.",\n}', "Bob", "Hi Bob.", "json"],
  ['Sure! Here is my answer:\n{"next_target": "Dr. Chen", "response": "Doctor, is the ward ready?"}\nLet me know if you need more.', "Dr. Chen", "Doctor, is the ward ready?", "json"],
  ['{target: "Maria", utterance: "Maria, can you hold the door?"}', "Maria", "Maria, can you hold the door?", "json"],
  ['{"Target": "Maria", "Utterance": "Thanks!"}', "Maria", "Thanks!", "json"],
  ['{"addressee": "the waiter", "message": "Two coffees, please."}', "the waiter", "Two coffees, please.", "json"],
  ['{"response": {"target": "Sam", "utterance": "Sam, are you in?"}}', "Sam", "Sam, are you in?", "json"],
  ['{"target": ["Sam"], "utterance": "Sam?"}', "Sam", "Sam?", "json"],
  ["{'target': 'Li', 'utterance': 'It\\'s fine, Li.'}", "Li", "It's fine, Li.", "json"],
  ['{"target": "Li", "utterance": "She said \\"no\\"."}', "Li", 'She said "no".', "json"],
  ['{"thought": "I should ask the cashier", "target": "cashier", "utterance": "How much is it?"}', "cashier", "How much is it?", "json"],
  ['{"target": "Ana", // who I talk to next\n "utterance": "Ana, your turn."}', "Ana", "Ana, your turn.", "json"],
  ["Target: Alice\nUtterance: Could you check the budget?", "Alice", "Could you check the budget?", "lines"],
  ["target: alice\nutterance: hello", "alice", "hello", "lines"],
  ["**Target:** Alice\n**Utterance:** Could you check the budget?", "Alice", "Could you check the budget?", "lines"],
  ["- Target: Bob\n- Utterance: \"Bob, we need to talk.\"", "Bob", "Bob, we need to talk.", "lines"],
  ["Next target: Mrs. Lee\nResponse: Mrs. Lee, the report is late.", "Mrs. Lee", "Mrs. Lee, the report is late.", "lines"],
  ["Target：王芳\nUtterance：请帮我看一下。", "王芳", "请帮我看一下。", "lines"],
  ["I think the right person is the manager.\nTarget: manager\nUtterance: Excuse me, could we talk about the refund?\n\nThis keeps the talk polite.", "manager", "Excuse me, could we talk about the refund?", "lines"],
  ["Target: Omar\nUtterance: Omar, first thing:\nthe van is booked.\nsecond, bring the keys.", "Omar", "Omar, first thing:\nthe van is booked.\nsecond, bring the keys.", "lines"],
  ["Addressee: Coach\nMessage: Can I start today?", "Coach", "Can I start today?", "lines"],
  ["Target = Priya\nUtterance = Priya, ready?", "Priya", "Priya, ready?", "lines"],
  ["### Target: Kenji\n### Utterance: Kenji, thanks for waiting.", "Kenji", "Kenji, thanks for waiting.", "lines"],
  ["Target: @Nina\nUtterance: Nina, lunch?", "Nina", "Nina, lunch?", "lines"],
  ["@Alice: Could you check the budget?", "Alice", "Could you check the budget?", "at"],
  ["@Dr. Chen: Is the ward ready?", "Dr. Chen", "Is the ward ready?", "at"],
  ["@Bob, we need to talk.", "Bob", "we need to talk.", "at"],
  ["@Bob we need to talk.", "Bob", "we need to talk.", "at"],
  ["Let me switch to the host.\n@host: Could we get the bill?", "host", "Could we get the bill?", "at"],
  ["@Tom：你好", "Tom", "你好", "at"],
  // Must fail at stage 1.
  ["", null],
  ["   ", null],
  ["I would talk to Alice and ask about the budget.", null],
  ['{"target": "Alice"}', null],
  ['{"utterance": "Hello there"}', null],
  ['{"target": "", "utterance": "Hello"}', null],
  ["Target: Alice", null],
  ["Utterance: Hello everyone", null],
  ['{"target": "Alice", "utterance": "unterminated', null],
  ["As an AI, I cannot choose who to talk to.", null],
  ["@: hello", null],
];

describe("parseResponse (stage 1)", () => {
  it(`reads ${CASES.length} realistic responses, failing the ones with no target or utterance`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    for (const [response, target, utterance, route] of CASES) {
      const parsed = parseResponse(response);
      if (target === null) {
        expect(parsed.ok, JSON.stringify(response)).toBe(false);
        continue;
      }
      expect(parsed, JSON.stringify(response)).toMatchObject({ok: true, target, route});
      if (parsed.ok) expect(parsed.utterance.startsWith(utterance!), `${JSON.stringify(response)} → ${JSON.stringify(parsed.utterance)}`).toBe(true);
    }
  });

  it("says why a response failed", () => {
    expect(parseResponse("")).toEqual({ok: false, problem: "the response is empty"});
    expect(parseResponse("No idea.")).toMatchObject({ok: false, problem: expect.stringContaining("no target and utterance found")});
  });
});

describe("targetMatches (stage 2)", () => {
  it("matches any accepted name after normalising case, spaces, punctuation and honorifics", () => {
    const gold = ["Dr. Wei Chen", "Wei", "the doctor"];
    for (const t of ["Dr. Wei Chen", "dr wei chen", "Wei Chen", "  WEI  ", "@Wei", "wei.", "The Doctor", "Prof. Wei Chen"]) {
      expect(targetMatches(t, gold), t).toBe(true);
    }
    for (const t of ["Chen Wei", "nurse", "", "Dr.", "Wei Chen Jr"]) expect(targetMatches(t, gold), t).toBe(false);
    expect(normaliseName("Mrs.  O'Neil-Smith")).toBe("o neil smith");
  });
});
