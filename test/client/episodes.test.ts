// The episode viewer's and the overview's wording without a browser: the
// list's sizes and counts, what it says about an unknown `?episode=`, which
// episode it selects first, and the synthetic warnings.

import {describe, expect, it} from "vitest";
import {
  episodeAddress, initialEpisode, listColumns, listCountText, listSizeLabel, listSizes, notFoundText, sideBySideHref, type EpisodeSummary, type ViewerBenchmark,
} from "../../src/client/episodes.js";
import {syntheticRowLabel} from "../../src/client/overview.js";
import {syntheticNoteText} from "../../src/components/synthetic-note.js";

function episode(episode_id: string, benchmark: string, extra: Partial<EpisodeSummary> = {}): EpisodeSummary {
  return {
    episode_id, benchmark, scenario: "", scenario_id: "", codename: "", tag: "", task_type: "", synthetic: false,
    models: "m", characters: "A & B", turns: 1, messages: 2, ...extra,
  };
}

const LIST = [episode("h1", "hsii", {scenario_id: "case-1", task_type: "workplace"}), episode("s1", "sotopia", {codename: "c"}), episode("s2", "sotopia"), episode("x1", "stss")];

const SOTOPIA: ViewerBenchmark = {name: "sotopia", label: "SOTOPIA", episodes: 100_000, firstPage: 0, pages: 200, bytes: 8_300_000};

describe("the episode viewer's list", () => {
  it("offers the default size and tenfold steps below the benchmark's count, then all of them with what that fetches", () => {
    expect(listSizes(SOTOPIA)).toEqual([5000, 50000, 100000]);
    expect(listSizes({...SOTOPIA, episodes: 232})).toEqual([232]);
    expect(listSizes({...SOTOPIA, episodes: 5000})).toEqual([5000]);
    expect(listSizeLabel(SOTOPIA, 50000)).toBe("50,000");
    expect(listSizeLabel(SOTOPIA, 100000)).toBe("all 100,000 (7.9 MB)");
    expect(listSizeLabel({...SOTOPIA, episodes: 232, bytes: 8291}, 232)).toBe("all 232 (8 KB)");
  });

  it("says how many it lists of how many, and how to reach the others, only when it lists fewer than all", () => {
    expect(listCountText(SOTOPIA, 5000)).toBe(
      'The list holds the first 5,000 of 100,000 SOTOPIA episodes with a transcript, by id, so the page stays light at any size: ' +
        'raise "Episodes listed" to search more (all of them fetch 7.9 MB), or open any episode by its id (?episode=<id>).',
    );
    expect(listCountText({...SOTOPIA, name: "stss", label: "STSS", episodes: 1064}, 1064)).toBe("1,064 STSS episodes with a transcript.");
  });
});

describe("an episode named in the address", () => {
  it("reads ?episode= and &vs= as given, and names an unknown id, as given, in the message", () => {
    expect(episodeAddress("?episode=x1")).toEqual({id: "x1", vs: null});
    expect(episodeAddress("")).toEqual({id: null, vs: null});
    expect(episodeAddress("?episode=a%26b&vs=%3Cb%3E")).toEqual({id: "a&b", vs: "<b>"});
    expect(notFoundText("<b>doesnotexist")).toBe(`No episode "<b>doesnotexist" in this store with a transcript.`);
    expect(sideBySideHref("a&b", "c d")).toBe("?episode=a%26b&vs=c+d");
  });

  it("selects the address's episode, nothing for an unknown id or one past the listed, else the first of the list", () => {
    const sotopia = LIST.filter((e) => e.benchmark === "sotopia");
    expect(initialEpisode(sotopia, "s2", LIST[2])?.episode_id).toBe("s2");
    expect(initialEpisode(sotopia, "nope", null)).toBeNull();
    expect(initialEpisode(sotopia, null, null)?.episode_id).toBe("s1");
    // A SOTOPIA episode the list does not hold (past its size): none selected, the page shows it from the address.
    expect(initialEpisode(sotopia, "s9", episode("s9", "sotopia"))).toBeNull();
    // The address names an HSII episode and the reader switched to SOTOPIA: its first episode.
    expect(initialEpisode(sotopia, "h1", LIST[0])?.episode_id).toBe("s1");
  });

  it("lists the optional columns some episode of the benchmark fills", () => {
    expect(listColumns(LIST.filter((e) => e.benchmark === "hsii"))).toEqual(["episode_id", "scenario_id", "task_type", "models", "characters", "turns", "synthetic"]);
    expect(listColumns(LIST.filter((e) => e.benchmark === "sotopia"))).toEqual(["episode_id", "codename", "models", "characters", "turns", "synthetic"]);
  });
});

describe("synthetic warnings", () => {
  it("name each kind that is synthetic with its own count, and nothing when none is", () => {
    expect(syntheticNoteText([{count: 5162, synthetic: 5162, what: "episodes loaded"}, {count: 120, synthetic: 120, what: "definitions and inputs"}]))
      .toBe("All 5162 episodes loaded and all 120 definitions and inputs are synthetic sample data, generated to exercise the tools: they are not results of real model runs.");
    expect(syntheticNoteText([{count: 20, synthetic: 0, what: "episodes loaded"}, {count: 30, synthetic: 30, what: "definitions and inputs"}]))
      .toBe("All 30 definitions and inputs are synthetic sample data, generated to exercise the tools: they are not results of real model runs.");
    expect(syntheticNoteText([{count: 232, synthetic: 12, what: "SOTOPIA episodes"}])).toMatch(/^12 of the 232 SOTOPIA episodes are synthetic/);
    expect(syntheticNoteText([{count: 20, synthetic: 0, what: "episodes loaded"}, {count: 0, synthetic: 0, what: "definitions and inputs"}])).toBeNull();
  });

  it("label a row's episodes and its definitions and inputs apart", () => {
    expect(syntheticRowLabel({episodes: 1304, synthetic: 1304, inputs: 30, inputs_synthetic: 30})).toBe("yes; inputs: yes");
    expect(syntheticRowLabel({episodes: 0, synthetic: 0, inputs: 90, inputs_synthetic: 90})).toBe("yes");
    expect(syntheticRowLabel({episodes: 10, synthetic: 4, inputs: 0, inputs_synthetic: 0})).toBe("4 of 10");
    expect(syntheticRowLabel({episodes: 10, synthetic: 0, inputs: null, inputs_synthetic: null})).toBe("no");
  });
});
