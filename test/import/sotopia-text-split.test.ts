// The judge's reasoning is cut into per-agent blocks by a hand-written scan
// (splitAgentBlocks) instead of a multiline regex split; both must give the
// same pieces, checked here against the regex itself on crafted and random texts.

import {describe, expect, it} from "vitest";
import {parseAction, parseReasoning, splitAgentBlocks} from "../../loaders/import/sotopia-text.js";

const bySplit = (text: string) => text.split(/^Agent (\d+) comments:\s*$/m);

describe("splitAgentBlocks", () => {
  it("cuts a reasoning text where the regex split cuts it (trailing blanks of a header line run into the next line break)", () => {
    const text = "Environment comments: none\nAgent 1 comments:\nbelievability: natural\nAgent 2 comments:  \n\ngoal: 3\n";
    expect(splitAgentBlocks(text)).toEqual(["Environment comments: none\n", "1", "\nbelievability: natural\n", "2", "\ngoal: 3\n"]);
    expect(splitAgentBlocks(text)).toEqual(bySplit(text));
  });

  it("agrees with the regex on line starts after \\r, U+2028 and U+2029, mid-line headers, text after the colon, and back-to-back headers", () => {
    const cases = [
      "", "Agent 1 comments:", "xAgent 1 comments:\n", "a\rAgent 2 comments:\rb", "a\u2028Agent 3 comments:\u2029Agent 4 comments:",
      "Agent 1 comments: more text\nAgent 12 comments:\t\n", "Agent  1 comments:\n", "Agent 1 comments:\nAgent 1 comments:\n",
      "Agent Agent 1 comments:\n", "\nAgent 7 comments:   \r\n  \nx",
    ];
    for (const text of cases) expect(splitAgentBlocks(text), JSON.stringify(text)).toEqual(bySplit(text));
  });

  it("agrees with the regex on random texts built from the pieces that matter", () => {
    const parts = ["Agent ", "1", "23", " comments:", "comments:", " ", "\t", "\n", "\r", "\u2028", "x", "Agent 1 comments:", "\nAgent 2 comments:\n"];
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
    for (let n = 0; n < 3000; n++) {
      const text = Array.from({length: next() % 30}, () => parts[next() % parts.length]).join("");
      expect(splitAgentBlocks(text), JSON.stringify(text)).toEqual(bySplit(text));
    }
  });

  it("leaves parseReasoning's result as before", () => {
    const text = "Agent 1 comments:\nbelievability: natural\nand fluent\ngoal: got it\nAgent 2 comments:\nbelievability: stiff\n";
    expect(parseReasoning(text)).toEqual(new Map([
      [1, new Map([["believability", "natural\nand fluent"], ["goal", "got it"]])],
      [2, new Map([["believability", "stiff"]])],
    ]));
  });
});

describe("parseAction", () => {
  it("drops one trailing comma as the regex /,$/ did, and only at the very end", () => {
    expect(parseAction('said: "Hi, you",')).toEqual({action_type: "speak", content: "Hi, you"});
    expect(parseAction("  did nothing,\n")).toEqual({action_type: "none", content: ""});
    expect(parseAction("[action] waves,,")).toEqual({action_type: "action", content: "waves,"});
    expect(parseAction("[non-verbal communication] nods, smiles")).toEqual({action_type: "non-verbal", content: "nods, smiles"});
    expect(parseAction(",")).toEqual({action_type: "other", content: ""});
    expect(parseAction("left the conversation, ")).toEqual({action_type: "leave", content: ""});
  });
});
