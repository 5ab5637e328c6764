// `npm run samples`: writes the synthetic SOTOPIA samples under data/samples/
// (episodes in the public dump's JSONL shape, human ratings in long CSV, and a
// README saying what they are). Same seed, byte-identical files.
//
//   tsx scripts/generate-samples.ts [--seed 42] [--out data/samples]

import {mkdirSync, writeFileSync} from "node:fs";
import {join, resolve} from "node:path";
import {parseArgs} from "node:util";
import {pathToFileURL} from "node:url";
import {SOTOPIA_DIMENSIONS} from "../src/lib/dimensions.js";
import {judgeReruns, judgeRerunsCsv, RERUN_EPISODES, RERUN_JUDGE, RERUN_RUNS, RERUN_SHIFT, RERUN_SHIFTED} from "./samples/sotopia-reruns.js";
import {HSII_CASES, HSII_JUDGE, HSII_MODELS, hsiiSamples} from "./samples/hsii.js";
import {CHAIN_LENGTH, HARDER, LIFELONG_MEMORY, LIFELONG_MODELS, lifelongSamples} from "./samples/lifelong.js";
import {IB_ABLATION_MODEL, IB_MODELS, IB_QUESTIONS, IB_TRAJECTORY_MODEL, informativebenchSamples} from "./samples/informativebench.js";
import {STSS_ARCHITECTURES, STSS_JUDGE, STSS_LOG_SCORER, STSS_MODELS, STSS_TASK_MIX, stssSamples} from "./samples/stss.js";
import {HUMAN, HUMAN_SEATINGS, humanRatingsCsv, SAMPLE_JUDGE, SAMPLE_MODELS, sotopiaSamples, toJsonl, type SotopiaSamples} from "./samples/sotopia.js";

export const DEFAULT_SEED = 42;

export interface WrittenSamples {
  files: string[];
  samples: SotopiaSamples;
}

/** Generates the samples for a seed and writes them under `outDir`. */
export function writeSamples(outDir: string, seed: string | number = DEFAULT_SEED): WrittenSamples {
  const samples = sotopiaSamples({seed});
  const dir = join(outDir, "sotopia");
  mkdirSync(dir, {recursive: true});
  const files = [join(dir, "episodes.jsonl"), join(dir, "human_ratings.csv"), join(outDir, "README.md"), join(dir, "judge_reruns.csv")];
  writeFileSync(files[0]!, toJsonl(samples.episodes));
  writeFileSync(files[1]!, humanRatingsCsv(samples.humanRatings));
  writeFileSync(files[2]!, samplesReadme(samples, seed));
  writeFileSync(files[3]!, judgeRerunsCsv(judgeReruns(seed, samples.episodes, samples.humanRatings)));
  const lifelongDir = join(outDir, "lifelong");
  mkdirSync(lifelongDir, {recursive: true});
  const lifelongFile = join(lifelongDir, "chains.jsonl");
  writeFileSync(lifelongFile, toJsonl(lifelongSamples(seed)));
  files.push(lifelongFile);
  const hsiiDir = join(outDir, "hsii");
  mkdirSync(hsiiDir, {recursive: true});
  const hsiiFile = join(hsiiDir, "runs.jsonl");
  writeFileSync(hsiiFile, toJsonl(hsiiSamples(seed)));
  files.push(hsiiFile);
  const stssDir = join(outDir, "stss");
  mkdirSync(stssDir, {recursive: true});
  const stss = stssSamples(seed);
  const stssFiles = [join(stssDir, "tasks.json"), join(stssDir, "conversations.jsonl"), join(stssDir, "actions.jsonl")];
  writeFileSync(stssFiles[0]!, JSON.stringify(stss.tasks, null, 1) + "\n");
  writeFileSync(stssFiles[1]!, toJsonl(stss.conversations));
  writeFileSync(stssFiles[2]!, toJsonl(stss.runs));
  for (const f of stssFiles) files.push(f);
  const ibDir = join(outDir, "informativebench");
  mkdirSync(ibDir, {recursive: true});
  const ib = informativebenchSamples(seed);
  const ibFiles = [join(ibDir, "schedules.jsonl"), join(ibDir, "results.jsonl")];
  writeFileSync(ibFiles[0]!, toJsonl(ib.schedules));
  writeFileSync(ibFiles[1]!, toJsonl(ib.results));
  for (const f of ibFiles) files.push(f);
  return {files, samples};
}

/** data/samples/README.md: what the files are, how they were made, and their shapes. */
function samplesReadme({episodes, humanRatings}: SotopiaSamples, seed: string | number): string {
  const annotated = new Set(humanRatings.map((r) => r.episode_id)).size;
  const raters = new Set(humanRatings.map((r) => r.rater)).size;
  const modelOnly = episodes.filter((e) => !e.experiment_model_name_pairs.slice(1).includes(HUMAN)).length;
  const dims = SOTOPIA_DIMENSIONS.map((d) => `\`${d.key}\` [${d.lo}, ${d.hi}]`).join(", ");
  return `# Sample data (SYNTHETIC)

Everything in this folder is **synthetic**: invented scenarios, characters,
dialogue, scores and annotators, made by \`npm run samples\`
(\`scripts/generate-samples.ts\`, seed \`${seed}\`). No record comes from a real
SOTOPIA run, a real LLM judge or a real human. The files exist so that the
workbench has something to import, show and test without network access; do
not read any number computed from them as a finding about the models named.

Rerunning \`npm run samples\` with the same seed rewrites the files byte for
byte; \`npm run samples -- --seed N\` makes a different set.

## \`sotopia/episodes.jsonl\`

${episodes.length} episodes, one JSON object per line, in the shape of the public
SOTOPIA episode dump (\`TwoAgentEpisodeWithScenarioBackgroundGoals\`):
\`episode_id\`, \`environment_id\`, \`agent_ids\`, \`experiment_tag\`,
\`experiment_model_name_pairs\` (\`[judge, agent 1 model, agent 2 model]\`),
\`raw_messages\` (turns; each a list of \`[sender, receiver, text]\`: the
environment's observation to each agent, then each agent's action to the
environment: \`said: "…"\`, \`did nothing\`, \`[non-verbal communication] …\`,
\`[action] …\` or \`left the conversation\`; the last turn holds only the final
observations), \`raw_rewards\` (\`[overall, {seven dimensions, overall_score}]\`
per agent), \`raw_rewards_prompt\` (a short stand-in, not a real judge prompt),
\`scenario\`, \`codename\`, \`agents_background\`, \`social_goals\`,
\`social_interactions\`, \`reasoning\` (environment comments, then one rationale
per dimension per agent) and \`rewards\` (\`[{…}, {…}]\`, the same scores as
\`raw_rewards\`). Every record also has \`"synthetic": true\`, every
\`experiment_tag\` reads \`synthetic_<judge>_<model 1>_<model 2>_v1\`, and every
\`codename\` starts with \`synthetic_\`.

- Models: ${SAMPLE_MODELS.map((m) => `\`${m}\``).join(", ")}; every ordered seating
  (each pair in both seats, and self-play) appears ${modelOnly / SAMPLE_MODELS.length ** 2} times.
- People: ${episodes.length - modelOnly} more episodes have a seat played by a person
  (model name \`${HUMAN}\`): ${HUMAN_SEATINGS.map(([a, b]) => `\`${a}\` with \`${b}\``).join(", ")},
  ${(episodes.length - modelOnly) / HUMAN_SEATINGS.length} each. Their utterances are shorter, and the judge scores
  people with more noise than models.
- Judge: \`${SAMPLE_JUDGE}\` (\`experiment_model_name_pairs[0]\`).
- Scores are integers in range: ${dims}; \`overall_score\` is the mean of the
  seven. They follow a per-model quality effect (gpt-4 best), a partner effect,
  a per-task difficulty and noise, drawn and rounded, and redrawn if out of range.
- 6 to 20 acting turns per episode, with occasional non-verbal, action and
  leave turns.

## \`sotopia/human_ratings.csv\`

Long-form CSV (RFC 4180 quoting), header
\`episode_id,agent,dimension,rater,value,rationale\`: ${humanRatings.length} rows, one
per (episode, agent seat 1 or 2, dimension, rater). ${annotated} episodes (a
random subset of the model episodes, and every episode with a person in it) are
annotated by 2 or 3 of ${raters} pseudonymous raters (\`annotator-01\` …), each
rating all seven dimensions for both agents, with a short note. Human scores
share a latent "true" score with the judge's, but the judge is more generous on
some dimensions (most on \`goal\`, hardly on \`believability\`), raters have
small personal offsets, and human noise is larger than the judge's.

## \`sotopia/judge_reruns.csv\`

Two runs of a second LLM judge, \`${RERUN_JUDGE}\` (run ids \`${RERUN_RUNS[0]}\` and
\`${RERUN_RUNS[1]}\`), over the same ${RERUN_EPISODES} model-only episodes no annotator rated
(format \`sotopia-ratings\`, long CSV with \`rater_kind\` and \`run_id\`, no rationales). Each
run scores both seats on all seven dimensions around the sample judge's scores, with a
leniency per seat and run shared by its seven scores; the second prompt adds
${RERUN_SHIFT} to \`${RERUN_SHIFTED}\` and to nothing else. \`sociometer compare sotopia --a
rater=${RERUN_JUDGE} run=${RERUN_RUNS[0]} --b rater=${RERUN_JUDGE} run=${RERUN_RUNS[1]}\` pairs them by
episode and seat: \`${RERUN_SHIFTED}\` changes significantly, the other dimensions do not.

## \`lifelong/chains.jsonl\`

LIFELONG-SOTOPIA chains in the workbench's \`lifelong\` JSONL form (see
docs/formats.md): ${LIFELONG_MODELS.length} models (${LIFELONG_MODELS.join(", ")}) ×
${LIFELONG_MEMORY.length} memory modes (${LIFELONG_MEMORY.join(", ")}) × 3 character pairs, each a
chain of ${CHAIN_LENGTH} episodes followed by ${HARDER} harder, memory-requiring ones. Every
episode has BEL, GOAL and the paper's eight-item checklist from the judge for
both agents; about 15% also have a human's checkpoint labels for agent 1. With
the whole history as memory, scores decline and checkpoint failures grow along
the chain; with summaries they hold; on the harder scenarios GOAL drops. The
models' names are only labels: nothing here was produced by them.

## \`hsii/runs.jsonl\`

HSII runs in the workbench's \`hsii\` JSONL form: ${Object.keys(HSII_MODELS).length} models
(${Object.keys(HSII_MODELS).join(", ")}), each with and without COT, over the same
${HSII_CASES} invented multi-party cases in five clusters. Responses come in the shapes
models write (JSON, fenced relaxed JSON, \`Target:\` / \`Utterance:\` lines, \`@Name:\`),
some of them malformed on purpose, so the parser decides stage 1. Stages 3 and 4
are judged by \`${HSII_JUDGE}\` in both orders, with a small bias toward the
forward order; COT runs carry three variants of target-selection rounds.

## \`stss/tasks.json\`, \`stss/conversations.jsonl\`, \`stss/actions.jsonl\`

STSS samples, also **synthetic**. \`tasks.json\` holds 30 invented task definitions in
the benchmark's own \`tasks.json\` shape (format \`stss-tasks\`), with the real task
files' mix of types (${STSS_TASK_MIX.map(([t, n]) => `${n} ${t}`).join(", ")}) and sizes
(11 to 13 characters), but invented people, places and activities; their ids start
with \`sample_\`. \`conversations.jsonl\` (format \`stss\`) has conversation runs for
${Object.keys(STSS_MODELS).length} models (${Object.keys(STSS_MODELS).join(", ")}) × ${STSS_ARCHITECTURES.length} architectures
(${STSS_ARCHITECTURES.join(", ")}) on the same conversation scenarios (one with the target person per appointment
task, up to 9 per public activity), each with a templated transcript, the listener's summary and yes/no goal
conditions at both levels by \`${STSS_JUDGE}\`. Three appointment tasks also have a conversation with someone
other than the target person, which the default \`--appointment-partners target\` leaves out and \`all\` counts. \`actions.jsonl\` (format \`stss-action\`)
has one simulation run per task for each model and architecture with an observed outcome
(participants, appointment outcome or sub-tasks done) and conversation counts; the GPT
runs also carry a score from \`${STSS_LOG_SCORER}\`, a made-up scorer that rounds the expected
participants down, so some logged scores disagree with Appendix A.1's rule on purpose. Some
asking-for-help runs do the errands in reverse, and some try the second errand early and do it
again later (deliver, buy, deliver), which \`--help-order first\` scores 0.5 and the default 1. TDP
helps every model, the time is the condition missed most, and summaries lose information.

## \`informativebench/schedules.jsonl\`, \`informativebench/results.jsonl\`

InformativeBench samples, also **synthetic**. \`schedules.jsonl\` (format
\`informativebench-schedules\`) holds ${IB_QUESTIONS.ScheduleEasy} ScheduleEasy (two people),
${IB_QUESTIONS.ScheduleMedium} ScheduleMedium and ${IB_QUESTIONS.ScheduleHard} ScheduleHard (six people) questions: invented days
of named activities between 8:00 and 22:00, some touching, now and then an empty day, now and
then a "Sleep in" from 8:00 (a fixed activity under the verifier's default; in some medium questions
the longest one) or, in the easy questions, a phone call during the person's own activity; each
record's \`gold\` is the answer the workbench's schedule verifier computes with its defaults, so
\`--fixed-activities none\` and \`--easy-overlap between\` disagree with some of them. \`results.jsonl\`
(format \`informativebench\`) has one record per (backend, question, settings) for
${Object.keys(IB_MODELS).length} backends (${Object.keys(IB_MODELS).join(", ")}) on ${Object.entries(IB_QUESTIONS).map(([d, n]) => `${n} ${d}`).join(", ")}
questions: invented persona and sitcom-style questions, and the schedule questions above with
their verifier gold. Predictions are right with a per-backend, per-dataset chance and written
in varied surface forms (case, articles, number words, 12- and 24-hour spans; one right answer in
four of NP, FriendsTV and ScheduleEasy is a whole sentence around the answer, which only
\`--match contains\` accepts); wrong ones are
another answer, a partial set, or shifted spans. iAgents' settings: InfoNav on, no memory and
no recursion for NP and Schedule, distinct + fuzzy memory and recursion for FriendsTV.
\`${IB_ABLATION_MODEL}\` also has ablation runs: InfoNav off on every dataset, and on FriendsTV each
memory off, both off, recursion off, anonymised names and a privacy prompt. Runs of
\`${IB_TRAJECTORY_MODEL}\` carry two-agent InfoNav trajectories (plans per update with
unknown / known / fake-solved rationales, and the consensus step). No record comes from
iAgents or a real model.
`;
}

async function main(): Promise<void> {
  const {values} = parseArgs({options: {seed: {type: "string"}, out: {type: "string"}}});
  const seed = values.seed === undefined ? DEFAULT_SEED : /^\d+$/.test(values.seed) ? Number(values.seed) : values.seed;
  const {files, samples} = writeSamples(resolve(values.out ?? "data/samples"), seed);
  console.error(`wrote ${samples.episodes.length} episodes and ${samples.humanRatings.length} human ratings (seed ${seed}):`);
  for (const f of files) console.error(`  ${f}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
