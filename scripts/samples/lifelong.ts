// Synthetic LIFELONG-SOTOPIA chains in the workbench's `lifelong` JSONL form:
// three models × two memory modes × three character pairs, 40 chained episodes
// and 5 harder ones each, judged on BEL, GOAL and the paper's eight-item
// checklist, with human checkpoint labels on a subset. Pure functions of a seed;
// every name and line is invented for the samples.

import {PAPER_CHECKPOINTS} from "../../src/lib/dimensions.js";
import {Random} from "./random.js";

export const LIFELONG_MODELS = ["gpt-4o", "gemini-1.5", "llama-3.1"] as const;
export const LIFELONG_MEMORY = ["full", "summary"] as const;
export const LIFELONG_JUDGE = "gpt-4";
export const CHAIN_LENGTH = 40;
export const HARDER = 5;

const PAIRS: readonly [string, string][] = [["Ana Ferreira", "Ben Okoye"], ["Chloe Marsh", "Dev Patel"], ["Eli Novak", "Farah Aziz"]];

const SCENARIOS = [
  "planning a weekend trip on a tight budget", "splitting the cost of a shared repair", "choosing a gift for a mutual friend",
  "deciding who hosts the family dinner", "sorting out a borrowed bike that came back scratched", "agreeing on a study schedule",
  "asking for a donation to a local food bank", "settling a disagreement about noise late at night",
];

const HARD_SCENARIOS = [
  "following up on the donation promised in an earlier meeting", "returning to the repair bill they argued about before",
  "a second trip, where last time's budget lesson matters", "the friend whose gift they chose now asks a favour",
  "the study plan they agreed earlier has fallen apart",
];

const LINES = [
  "I was hoping we could sort this out today.", "That works for me, as long as we are fair about it.",
  "Last time we talked you said something similar.", "Could we meet halfway on this?", "I hear you, let me think about it.",
  "Let's write it down so neither of us forgets.", "I'd rather not decide right now.", "Fine, you have convinced me.",
];

export interface LifelongSampleRecord {
  episode_id: string;
  chain_id: string;
  chain_index: number;
  memory_mode: string;
  harder: boolean;
  scenario: string;
  agents: {model: string; character: string; goal: string}[];
  messages: {agent: number; content: string}[];
  ratings: {agent: number; rater: string; rater_kind: "llm" | "human"; scores?: {believability: number; goal: number}; checkpoints: number[]}[];
  summary?: string;
  synthetic: true;
}

/** How a model holds up: BEL and GOAL slope per episode under each memory mode, and its drop on the harder scenarios. */
const PROFILE: Record<string, {bel: number; goal: number; slope: Record<string, number>; hardGoalDrop: number}> = {
  "gpt-4o": {bel: 9.2, goal: 8.4, slope: {full: -0.1, summary: -0.005}, hardGoalDrop: 3.2},
  "gemini-1.5": {bel: 9.0, goal: 8.0, slope: {full: -0.06, summary: -0.005}, hardGoalDrop: 2.8},
  "llama-3.1": {bel: 8.6, goal: 7.5, slope: {full: -0.08, summary: -0.03}, hardGoalDrop: 3.0},
};

const clamp10 = (v: number) => Math.min(10, Math.max(0, Math.round(v)));

export function lifelongSamples(seed: string | number, {humanShare = 0.15} = {}): LifelongSampleRecord[] {
  const rng = new Random(`lifelong:${seed}`);
  const out: LifelongSampleRecord[] = [];
  for (const model of LIFELONG_MODELS) {
    for (const memory of LIFELONG_MEMORY) {
      for (const [a, b] of PAIRS) {
        const chain = `${a.split(" ")[0]!.toLowerCase()}-${b.split(" ")[0]!.toLowerCase()}`;
        const p = PROFILE[model]!;
        for (let index = 1; index <= CHAIN_LENGTH + HARDER; index++) {
          const harder = index > CHAIN_LENGTH;
          const scenario = harder ? HARD_SCENARIOS[index - CHAIN_LENGTH - 1]! : rng.pick(SCENARIOS);
          const drift = p.slope[memory]! * Math.min(index, CHAIN_LENGTH);
          const ratings: LifelongSampleRecord["ratings"] = [];
          for (const agent of [1, 2]) {
            const bel = clamp10(rng.normal(p.bel + drift, 0.6));
            const goal = clamp10(rng.normal(p.goal + 0.8 * drift - (harder ? p.hardGoalDrop : 0), 0.9));
            // Failures grow with how far the model has drifted; the judge misses some of them.
            const failRate = Math.min(0.6, 0.004 + Math.max(0, -drift) * 0.05);
            const truth = PAPER_CHECKPOINTS.checkpoints.map(() => (rng.chance(failRate) ? 0 : 1));
            const judged = truth.map((t) => (t === 0 ? (rng.chance(0.2) ? 1 : 0) : rng.chance(0.005) ? 0 : 1));
            ratings.push({agent, rater: LIFELONG_JUDGE, rater_kind: "llm", scores: {believability: bel, goal}, checkpoints: judged});
            if (agent === 1 && rng.chance(humanShare)) {
              const human = truth.map((t) => (rng.chance(0.01) ? 1 - t : t));
              ratings.push({agent, rater: "annotator-lifelong", rater_kind: "human", checkpoints: human});
            }
          }
          out.push({
            episode_id: `synthetic-lifelong-${model}-${memory}-${chain}-${String(index).padStart(2, "0")}`,
            chain_id: chain, chain_index: index, memory_mode: memory, harder, scenario: `Synthetic: ${scenario}`,
            agents: [{model, character: a, goal: `Get a good outcome when ${scenario}`}, {model, character: b, goal: `Keep your own interests when ${scenario}`}],
            messages: [0, 1, 2, 3].map((t) => ({agent: (t % 2) + 1, content: rng.pick(LINES)})),
            ratings,
            ...(memory === "summary" ? {summary: `Synthetic summary: ${a} and ${b} discussed ${scenario}.`} : {}),
            synthetic: true,
          });
        }
      }
    }
  }
  return out;
}
