import {describe, expect, it} from "vitest";
import {answerItems, answerMatches, namesIn, normaliseAnswer, saysNothing, scheduleItems, scoreAnswer, setF1} from "../../src/lib/informativebench-answers.js";

describe("normaliseAnswer", () => {
  it("folds case, punctuation, articles and spacing", () => {
    expect(normaliseAnswer("  The  Lord of the Rings! ")).toBe("lord of rings");
    expect(normaliseAnswer("Central Perk.")).toBe(normaliseAnswer("central perk"));
    expect(normaliseAnswer("“Monica’s apartment”")).toBe("monicas apartment");
    expect(normaliseAnswer("Ross's")).toBe(normaliseAnswer("Ross’s"));
    expect(normaliseAnswer("Ｃｈａｎｄｌｅｒ")).toBe("chandler"); // full-width letters (NFKC)
  });

  it("turns number words into digits, and digits keep their value", () => {
    expect(normaliseAnswer("three")).toBe("3");
    expect(normaliseAnswer("Twenty-one")).toBe("21");
    expect(normaliseAnswer("one hundred and five")).toBe("105");
    expect(normaliseAnswer("a hundred")).toBe("100");
    expect(normaliseAnswer("two thousand twenty four")).toBe("2024");
    expect(normaliseAnswer("007")).toBe("7");
    expect(normaliseAnswer("1,000 people")).toBe("1000 people");
    expect(normaliseAnswer("3.5 hours")).toBe("3.5 hours");
    expect(normaliseAnswer("at 9:30")).toBe("at 9:30");
  });

  it("keeps separate numbers separate: punctuation ends a number, and two units, two tens or a unit then a teen do not add up", () => {
    expect(normaliseAnswer("two, one")).toBe("2 1");
    expect(normaliseAnswer("one two three")).toBe("1 2 3");
    expect(normaliseAnswer("seven eleven")).toBe("7 11");
    expect(normaliseAnswer("twenty twenty")).toBe("20 20");
    expect(normaliseAnswer("nineteen ninety")).toBe("19 90");
    expect(normaliseAnswer("Delete two, one of yours and one of mine")).toBe("delete 2 1 of yours and 1 of mine");
    // What does add up still does.
    expect(normaliseAnswer("nineteen hundred")).toBe("1900");
    expect(normaliseAnswer("a thousand and one")).toBe("1001");
    expect(normaliseAnswer("one hundred thousand")).toBe("100000");
    expect(normaliseAnswer("zero one")).toBe("0 1");
  });

  it("drops articles unless the answer is nothing but articles", () => {
    expect(normaliseAnswer("A")).toBe("a");
    expect(normaliseAnswer("the A")).toBe("the a");
    expect(normaliseAnswer("A lot")).toBe("lot");
  });

  it("keeps apart what differs", () => {
    // "and" joins a number only after "hundred": "two and three" stays two numbers.
    expect(normaliseAnswer("two and three")).toBe("2 and 3");
    expect(normaliseAnswer("35")).not.toBe(normaliseAnswer("3.5"));
    expect(normaliseAnswer("first")).toBe("first"); // ordinals are not numbers here
    expect(normaliseAnswer("someone")).toBe("someone"); // number words inside words stay
    expect(normaliseAnswer("Ross and Rachel")).not.toBe(normaliseAnswer("Rachel and Ross"));
  });
});

describe("answerMatches", () => {
  it("matches tricky pairs exactly after normalisation", () => {
    const pairs: [string, string, boolean][] = [
      ["2", "two", true],
      ["Two.", "2", true],
      ["The Hobbit", "hobbit", true],
      ["the Lord-of-the-Rings", "Lord of the Rings", true],
      ["It's Joey", "its joey", true],
      ["Joey", "Joey Tribbiani", false],
      ["twelve", "12", true],
      ["12:00", "12", false],
      ["An apple", "apple", true],
      ["", "the", false], // a gold answer that normalises to nothing never matches
      ["Phoebe!!", "PHOEBE", true],
      ["3 activities", "three", false],
      ["two, one", "3", false],
      ["one two three", "6", false],
      ["seven eleven", "18", false],
      ["twenty twenty", "40", false],
      ["A", "a", true],
      ["None", "0", true],
      ["no activities", "0", true],
      ["Nothing.", "zero", true],
      ["none", "1", false],
    ];
    for (const [p, g, expected] of pairs) expect(answerMatches(p, [g]), `${p} vs ${g}`).toBe(expected);
  });

  it("accepts any of several gold answers, and `contains` finds the answer as whole words in a sentence", () => {
    expect(answerMatches("Rachel", ["Rachel Green", "Rachel"])).toBe(true);
    expect(answerMatches("The answer is three activities.", ["3"], "contains")).toBe(true);
    expect(answerMatches("The answer is three activities.", ["3"], "exact")).toBe(false);
    expect(answerMatches("13 activities", ["3"], "contains")).toBe(false); // whole words, not substrings
    expect(answerMatches("Monica's apartment, probably", ["Monica's apartment"], "contains")).toBe(true);
  });

  it("`contains` does not accept a negated answer, a number among others, or a sum of separate numbers", () => {
    expect(answerMatches("Not Ross, it was Rachel", ["Ross"], "contains")).toBe(false);
    expect(answerMatches("Not Ross, it was Rachel", ["Rachel"], "contains")).toBe(true);
    expect(answerMatches("between 2 and 3", ["2"], "contains")).toBe(false);
    expect(answerMatches("Delete two, one of yours and one of mine", ["3"], "contains")).toBe(false);
    expect(answerMatches("Delete two, one of yours and one of mine", ["2"], "contains")).toBe(false);
    expect(answerMatches("We need to delete 2 activities.", ["two"], "contains")).toBe(true);
    expect(answerMatches("No activities need to be deleted.", ["0"], "contains")).toBe(true);
  });
});

describe("set F1", () => {
  it("splits list answers into items and scores them by hand", () => {
    expect(answerItems("Yoga, the Lunch and Gym; - Reading\n2. Swim")).toEqual(["yoga", "lunch", "gym", "reading", "swim"]);
    expect(answerItems("1. Gym 2. Yoga")).toEqual(["gym", "yoga"]);
    expect(answerItems("Gym (Alice), Yoga (Bob)")).toEqual(["gym", "yoga"]);
    // P = {yoga, lunch, gym}, G = {yoga, hike}: 2·1 / (3 + 2).
    expect(setF1(answerItems("Yoga, Lunch, Gym"), ["yoga", "hike"])).toBeCloseTo(0.4, 12);
    expect(setF1([], [])).toBe(1);
    expect(setF1(["a"], [])).toBe(0);
    expect(setF1(["yoga", "yoga"], ["yoga"])).toBe(1);
  });
});

describe("F1 with the schedule's activity names", () => {
  const names = ["Lunch with Tom and Jerry", "Rock and Roll class", "Gym", "Yoga", "Roll"];

  it("finds names as whole words, longest first, each stretch of text once", () => {
    expect(namesIn("Rock and Roll class, then Yoga", names)).toEqual(["rock and roll class", "yoga"]);
    expect(namesIn("Roll and Yoga", names)).toEqual(["yoga", "roll"]);
    expect(namesIn("Yogurt", names)).toEqual([]);
  });

  it("scores what the prediction names against what the gold names", () => {
    const f1 = (p: string, g: string[]) => scoreAnswer("f1", p, g, {context: {names}});
    expect(f1("Jerry", ["Lunch with Tom and Jerry"])).toEqual({score: 0, problem: "names no activity of the schedule and does not say none"});
    expect(f1("Roll class", ["Rock and Roll class"]).score).toBe(0);
    expect(f1("Rock and Roll class", ["Rock and Roll class"]).score).toBe(1);
    // Free-text pieces that name no activity are items too: P = {gym, "which lasts 3 hours"}, G = {gym}: 2·1 / 3.
    expect(f1("The longest activity is Gym, which lasts 3 hours.", ["Gym"]).score).toBeCloseTo(2 / 3, 12);
    expect(f1("Gym (Alice), Yoga (Bob)", ["Gym", "Yoga"]).score).toBe(1);
    // P = {gym, yoga}, G = {gym}: 2·1 / 3.
    expect(f1("Gym and Yoga", ["Gym"]).score).toBeCloseTo(2 / 3, 12);
    // A gold that names nothing of the schedule: split, and said.
    expect(f1("Swim", ["Swim"])).toEqual({score: 1, problem: "the gold names no activity of the schedule: items split at commas and \"and\""});
  });

  it("counts predicted items that name no activity of the schedule in |P| (a new user's repro)", () => {
    const schedule = ["Gym", "Yoga", "Reading"];
    const f1 = (p: string, g: string[]) => scoreAnswer("f1", p, g, {context: {names: schedule}}).score;
    // P = {gym, lunch, dinner, tennis}, G = {gym}: 2·1 / 5, as without the schedule.
    expect(f1("Gym, Lunch, Dinner and Tennis", ["Gym"])).toBeCloseTo(0.4, 12);
    expect(scoreAnswer("f1", "Gym, Lunch, Dinner and Tennis", ["Gym"]).score).toBeCloseTo(0.4, 12);
    // ScheduleMedium-6 of their store: P = {gym, yoga, lunch}, G = {gym, yoga}: 2·2 / 5.
    expect(f1("Gym, Yoga, Lunch", ["Gym, Yoga"])).toBeCloseTo(0.8, 12);
    // A set literal: each element one item. P = {gym, lunch}, G = {gym}: 2 / 3.
    expect(f1("{'Gym', 'Lunch'}", ["Gym"])).toBeCloseTo(2 / 3, 12);
    expect(scheduleItems("{'Gym', 'Lunch'}", schedule)).toEqual(["gym", "lunch"]);
    expect(scheduleItems('["Yoga", "Gym"]', schedule)).toEqual(["yoga", "gym"]);
    // A name split at "and" is still one item; the invented piece is another: 2·1 / 3.
    expect(scoreAnswer("f1", "Rock and Roll class, Tennis", ["Rock and Roll class"], {context: {names: names}}).score).toBeCloseTo(2 / 3, 12);
    // Naming only the schedule's activities is unchanged.
    expect(f1("Gym and Yoga", ["Gym", "Yoga"])).toBe(1);
  });

  it("reads free text that names no activity as items (default) or, under `commentary`, leaves it out; literal elements stay items", () => {
    const schedule = ["Gym", "Yoga", "Reading"];
    const f1 = (p: string, g: string[], freeText?: "items" | "commentary") => scoreAnswer("f1", p, g, {freeText, context: {names: schedule}}).score;
    const p = "The longest activity is Gym, which lasts 3 hours.";
    // items: P = {gym, "which lasts 3 hours"}, G = {gym}: 2·1 / 3. commentary: P = {gym}: 2·1 / 2.
    expect(f1(p, ["Gym"])).toBeCloseTo(2 / 3, 12);
    expect(f1(p, ["Gym"], "items")).toBeCloseTo(2 / 3, 12);
    expect(f1(p, ["Gym"], "commentary")).toBe(1);
    expect(scheduleItems(p, schedule, "commentary")).toEqual(["gym"]);
    // An invented activity in free text is free under commentary: P = {gym}, G = {gym, yoga}: 2·1 / 3 (items: P = {gym, tennis}, 2·1 / 4).
    expect(f1("Gym and Tennis", ["Gym, Yoga"], "commentary")).toBeCloseTo(2 / 3, 12);
    expect(f1("Gym and Tennis", ["Gym, Yoga"], "items")).toBeCloseTo(0.5, 12);
    // A literal's element is an item by construction under both: P = {gym, tennis}, G = {gym}: 2·1 / 3.
    expect(f1("{'Gym', 'Tennis'}", ["Gym"], "commentary")).toBeCloseTo(2 / 3, 12);
    expect(f1("{'Gym', 'Tennis'}", ["Gym"], "items")).toBeCloseTo(2 / 3, 12);
    // Naming nothing of the schedule still scores 0, and "none" still reads as the empty set, under both.
    expect(scoreAnswer("f1", "Tennis, surely", ["Gym"], {freeText: "commentary", context: {names: schedule}})).toEqual({score: 0, problem: "names no activity of the schedule and does not say none"});
    expect(f1("None of them", ["none"], "commentary")).toBe(1);
    // Without a schedule the option does nothing: pieces are split as before, P = {gym, "which lasts 3 hours"}, G = {gym}: 0 under exact.
    expect(scoreAnswer("f1", p, ["Gym"], {freeText: "commentary"}).score).toBe(0);
    expect(scoreAnswer("f1", "Gym and Tennis", ["Gym"], {freeText: "commentary"}).score).toBeCloseTo(2 / 3, 12);
    // Other metrics are untouched.
    expect(scoreAnswer("precision", "Two", ["2"], {freeText: "commentary"})).toEqual({score: 1, problem: null});
  });

  it("without the schedule, `contains` lets a piece stand for the gold items it contains", () => {
    const p = "The longest activity is Gym, which lasts 3 hours.";
    expect(scoreAnswer("f1", p, ["Gym"]).score).toBe(0);
    // Pieces: {gym (found inside the first), "which lasts 3 hours"}; gold {gym}: 2·1 / 3.
    expect(scoreAnswer("f1", p, ["Gym"], {match: "contains"}).score).toBeCloseTo(2 / 3, 12);
  });
});

describe("scoreAnswer", () => {
  it("scores each metric", () => {
    expect(scoreAnswer("precision", "Two", ["2"])).toEqual({score: 1, problem: null});
    expect(scoreAnswer("f1", "Work and Hike", ["Work", "Hike", "Swim"]).score).toBeCloseTo(0.8, 12);
    expect(scoreAnswer("f1", "Work", ["Work, Hike"]).score).toBeCloseTo(2 / 3, 12);
    // Predicted 9:00–11:00; gold 10:00–12:00: 60 / 180.
    expect(scoreAnswer("iou", "Everyone is free 9:00 to 11:00.", ["10:00-12:00"]).score).toBeCloseTo(1 / 3, 12);
    expect(scoreAnswer("iou", "We are free 9:00-10:30, 14:00 to 15:15", ["9:00-10:30, 14:00-15:15"])).toEqual({score: 1, problem: null});
  });

  it("scores a missing prediction 0 whatever the gold, and names the problem", () => {
    expect(scoreAnswer("precision", null, ["2"])).toEqual({score: 0, problem: "no prediction"});
    expect(scoreAnswer("iou", null, ["none"])).toEqual({score: 0, problem: "no prediction"});
    expect(scoreAnswer("f1", null, [])).toEqual({score: 0, problem: "no prediction"});
    expect(scoreAnswer("iou", "   ", ["none"])).toEqual({score: 0, problem: "no prediction"});
  });

  it("reads an empty span list only from words that say so; anything else without a span scores 0 and is flagged", () => {
    expect(scoreAnswer("iou", "There is no common free time today.", ["none"])).toEqual({score: 1, problem: null});
    expect(scoreAnswer("iou", "None", ["none"])).toEqual({score: 1, problem: null});
    expect(scoreAnswer("iou", "None", ["9:00-10:00"])).toEqual({score: 0, problem: null});
    expect(scoreAnswer("iou", "I don't know", ["none"])).toEqual({score: 0, problem: "no time span found and no explicit \"none\": scored 0"});
    expect(scoreAnswer("iou", "Sorry, I could not find out.", ["none"]).score).toBe(0);
    // The only span is invalid: not "no free time".
    expect(scoreAnswer("iou", "free 9-5", ["none"])).toEqual({score: 0, problem: "no valid span (left out 9–5: the end is before the start)"});
    expect(["no free time", "nobody is free", "No common free slots"].map(saysNothing)).toEqual([true, true, true]);
    expect(["no idea", "I don't know", "not sure"].map(saysNothing)).toEqual([false, false, false]);
  });

  it("scores the valid spans when some are left out, and says which", () => {
    const bad = scoreAnswer("iou", "free 9:00-10:00 and 16:00-15:00", ["9:00-10:00"]);
    expect(bad.score).toBe(1);
    expect(bad.problem).toBe("left out 16:00–15:00: the end is before the start");
    // Bare hours in a day of 8:00–22:00: 1-3 is 13:00–15:00; gold 13:00–14:00: IoU 60 / 120.
    const bare = scoreAnswer("iou", "1-3", ["13:00-14:00"], {context: {day: {start: 480, end: 1320}}});
    expect(bare.score).toBeCloseTo(0.5, 12);
    expect(bare.problem).toContain("bare hours read in the afternoon");
  });
});
