// A scripted model that follows `sociometer run informativebench`'s protocol
// (loaders/run/episodes/informativebench.ts), for the runner's tests and its
// throughput benchmark (bench/run-informativebench.ts). It reads which step a
// request is from the prompt's own wording, as a test server must.

/** The prompt's user message (a re-ask appends the rejected answer and a note after it). */
export const userOf = (messages: readonly {role: string; content: string}[]) => messages.find((m) => m.role === "user")?.content ?? "";
export const personOf = (user: string) => /^## What (.+) told you$/m.exec(user)?.[1] ?? "";
const speakers = (user: string) => [...user.matchAll(/^\d+\. Assistant of (.+?): /gm)].map((m) => m[1]!);

/**
 * A model that follows the protocol. Each plan has three facts: its own side's
 * day, the other side's, and "the answer". After the first message the speaker's
 * facts are known to both; after the second, both days, and "the answer" is
 * filled as "unknown" (fake solved). The conversation ends on message 2.
 * Answers: easy 1 (right; 2 without InfoNav, wrong), medium "Yoga" (F1 2/3),
 * hard 9:00-9:30 (IoU 30 / 90 = 1/3).
 */
export function protocol(messages: readonly {role: string; content: string}[]): string {
  const user = userOf(messages);
  const person = personOf(user);
  if (user.includes("Before the conversation starts")) {
    return JSON.stringify({rationales: [{rationale: `day of ${person}`, status: "unknown", content: ""}, {rationale: "day of the other side", status: "unknown"}, {rationale: "the answer", status: "unknown"}]});
  }
  if (user.includes("Update your plan")) {
    const said = speakers(user);
    const own = said.includes(person), other = said.some((s) => s !== person);
    return JSON.stringify({rationales: [
      {rationale: `day of ${person}`, status: own ? "known" : "unknown", content: own ? `${person}'s list` : ""},
      {rationale: "day of the other side", status: other ? "known" : "unknown", content: other ? "their list" : ""},
      {rationale: "the answer", status: own && other ? "known" : "unknown", content: own && other ? "unknown" : ""},
    ]});
  }
  const turn = /It is message (\d+) of at most/.exec(user);
  if (turn) return JSON.stringify({message: `${person} here, with my day.`, finished: turn[1] === "2"});
  if (user.includes("keep every fact that is known")) {
    const names = [...user.matchAll(/^- (.+?): (?:known|unknown)/gm)].map((m) => m[1]!);
    const half = (i: number) => names.slice(i * 3, i * 3 + 3);
    return JSON.stringify({agent_1: {kept: half(0).slice(0, 2), dropped: [half(0)[2]]}, agent_2: {kept: half(1).slice(0, 2), dropped: [half(1)[2]]}});
  }
  const question = /^## The question\n(.+)$/m.exec(user)?.[1] ?? "";
  const infonav = user.includes("## The facts both plans agree on");
  if (question.includes("smallest number of activities")) return JSON.stringify({answer: infonav ? "1" : "2"});
  if (question.includes("lasts longest")) return JSON.stringify({answer: "Yoga"});
  if (question.includes("all free")) return JSON.stringify({answer: "9:00-9:30"});
  return JSON.stringify({answer: "no idea"});
}
