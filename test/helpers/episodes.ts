// Small SOTOPIA records in the public JSONL dump shape, for importer tests.

const SCORES = {
  believability: 8, relationship: 2, knowledge: 3, secret: 0, social_rules: 0,
  financial_and_material_benefits: 1, goal: 7,
};

export type DumpRecord = Record<string, unknown>;

/** A valid two-agent episode; override any field. */
export function dumpRecord(id: string, overrides: DumpRecord = {}): DumpRecord {
  const a = "Ada Lane";
  const b = "Bo Chen";
  return {
    episode_id: id,
    environment_id: "env-1",
    agent_ids: ["p-ada", "p-bo"],
    experiment_tag: "test",
    experiment_model_name_pairs: ["judge-x", "model-a", "model-b"],
    raw_messages: [
      [["Environment", a, "Scenario: two colleagues"], ["Environment", b, "Scenario: two colleagues"], [a, "Environment", 'said: "Hello there"'], [b, "Environment", "did nothing"]],
      [["Environment", a, "Turn #0"], ["Environment", b, "Turn #0"], [a, "Environment", "did nothing"], [b, "Environment", "[non-verbal communication] waves"]],
      [["Environment", a, "Turn #1"], ["Environment", b, "Turn #1"], [a, "Environment", "left the conversation"], [b, "Environment", "did nothing"]],
    ],
    raw_rewards: [[17 / 7, {...SCORES, overall_score: 17 / 7}], [17 / 7, {...SCORES, goal: 7, overall_score: 17 / 7}]],
    scenario: "Two colleagues share a desk",
    codename: "desk",
    agents_background: {[a]: "Ada is an engineer.", [b]: "Bo is a designer."},
    social_goals: {[a]: "Get the window seat", [b]: "Keep the window seat"},
    reasoning: "Environment comments: none\nAgent 1 comments:\nbelievability: natural\ngoal: got it\nAgent 2 comments:\nbelievability: stiff\n",
    ...overrides,
  };
}

export const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
