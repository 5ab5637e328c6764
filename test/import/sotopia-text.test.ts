// Transcripts rendered as text (the annotation study's rewards_prompt): which
// `Turn #` lines are markers and which are words a model wrote.

import {describe, expect, it} from "vitest";
import {parseRenderedConversation} from "../../loaders/import/sotopia-text.js";

const NAMES = ["Ada Lane", "Bo Chen"];
const parsed = (text: string) => parseRenderedConversation(text, NAMES).map((t) => [t.turn, t.speaker, t.action.action_type, t.action.content]);

describe("parseRenderedConversation", () => {
  it("takes a last `Turn #N,` line for the marker of the turn no one took", () => {
    expect(parsed('Turn #1\nAda Lane said: "Hi, Bo."\nTurn #2\nBo Chen [action] waves\nTurn #3,')).toEqual([
      [1, "Ada Lane", "speak", "Hi, Bo."],
      [2, "Bo Chen", "action", "waves"],
    ]);
    // After an empty turn, and in the `Turn #N: ` form.
    expect(parsed('Turn #1\nAda Lane said: "Bye."\nTurn #2\nTurn #3,')).toEqual([[1, "Ada Lane", "speak", "Bye."]]);
    expect(parsed('Turn #0: Ada Lane said: "Bye."\nTurn #1,\n')).toEqual([[0, "Ada Lane", "speak", "Bye."]]);
  });

  it("keeps `Turn #` inside an utterance: after other words, before a closing quote, and in the other marker form", () => {
    expect(parsed('Turn #1\nAda Lane said: "Turn #2: Bo Chen said: hi"\nTurn #2\nBo Chen said: "It was\nTurn #8,"')).toEqual([
      [1, "Ada Lane", "speak", "Turn #2: Bo Chen said: hi"],
      [2, "Bo Chen", "speak", "It was\nTurn #8,"],
    ]);
    // `Turn #N,` is a marker only as the last line.
    expect(parsed('Turn #1\nAda Lane said: "Notes:\nTurn #3,\nBo Chen said: yes"\nTurn #2,')).toEqual([
      [1, "Ada Lane", "speak", "Notes:\nTurn #3,\nBo Chen said: yes"],
    ]);
    // A model quoting a transcript as `Turn #N: ` lines, in a prompt whose markers are `Turn #N` lines (as episode 01HNBCQQRFA7332019G6ABD7Y6 does).
    const quoting = 'Turn #1\nAda Lane said: "Summary:\n\nTurn #0: Ada Lane said: "Hi"\n\nTurn #1: Bo Chen said: "Yo""\nTurn #2\nBo Chen left the conversation,';
    expect(parsed(quoting)).toEqual([
      [1, "Ada Lane", "speak", 'Summary:\n\nTurn #0: Ada Lane said: "Hi"\n\nTurn #1: Bo Chen said: "Yo"'],
      [2, "Bo Chen", "leave", ""],
    ]);
    // And the other way round: `Turn #N` lines inside a `Turn #N: ` prompt.
    expect(parsed('Turn #0: Ada Lane said: "Notes\nTurn #5\nBo Chen said: no"\nTurn #1: Bo Chen did nothing')).toEqual([
      [0, "Ada Lane", "speak", "Notes\nTurn #5\nBo Chen said: no"],
      [1, "Bo Chen", "none", ""],
    ]);
  });
});
