// SOTOPIA_STATS_SQL and SOTOPIA_TASKS_SQL were rewritten for speed at 100k+
// episodes (issue 18: no ordered aggregates, instances grouped before their
// labels join). Their results must not change: the statements as they were
// before are kept here and run on the bundled samples beside the new ones.

import {describe, expect, it} from "vitest";
import {SOTOPIA_STATS_SQL, SOTOPIA_TASKS_SQL} from "../../loaders/queries/sotopia.js";
import {importFiles} from "../../loaders/import/session.js";
import {SAMPLE_IMPORTS} from "../../loaders/samples.js";
import {rows} from "../../loaders/store/db.js";
import {tempStore} from "../helpers/store.js";

const TASK_REF = "coalesce(q.agent_ref, q.character, q.agent::VARCHAR)";
const TASK_ID_BEFORE = `coalesce(any_value(e.scenario_id), any_value(e.scenario), '') || ' | ' || string_agg(${TASK_REF}, ' & ' ORDER BY ${TASK_REF})`;

const STATS_BEFORE = `
WITH sotopia_dims AS (
  SELECT dimension FROM dimensions WHERE benchmark = 'sotopia'
),
seat AS (
  SELECT p.episode_id, p.agent, p.model,
         coalesce(string_agg(q.model, ' + ' ORDER BY q.model) FILTER (WHERE q.agent <> p.agent), '') AS partner,
         ${TASK_ID_BEFORE} AS task_id
  FROM participants p
  JOIN participants q USING (episode_id)
  JOIN episodes e ON e.episode_id = p.episode_id
  WHERE e.benchmark = 'sotopia'
  GROUP BY p.episode_id, p.agent, p.model
),
scored AS (
  SELECT r.episode_id, r.agent, r.rater, r.rater_kind, r.dimension, avg(r.value) AS value, s.model, s.partner, s.task_id
  FROM ratings r
  JOIN seat s ON s.episode_id = r.episode_id AND s.agent = r.agent
  WHERE r.dimension IN (SELECT dimension FROM sotopia_dims)
  GROUP BY ALL
),
human_mean AS (
  SELECT episode_id, agent, 'humans' AS rater, 'human_mean' AS rater_kind, dimension, avg(value) AS value, model, partner, task_id
  FROM scored
  WHERE rater_kind = 'human'
  GROUP BY ALL
),
per_rater AS (
  SELECT * FROM scored UNION ALL BY NAME SELECT * FROM human_mean
),
overall AS (
  SELECT episode_id, agent, rater, rater_kind, 'overall' AS dimension, avg(value) AS value, model, partner, task_id
  FROM per_rater
  GROUP BY ALL
  HAVING count(*) = (SELECT count(*) FROM sotopia_dims)
)
SELECT rater, rater_kind, task_id, model, partner, dimension,
       count(*)::INTEGER AS n, sum(value)::DOUBLE AS sum, sum(value * value)::DOUBLE AS sum_sq
FROM (SELECT * FROM per_rater UNION ALL BY NAME SELECT * FROM overall)
GROUP BY ALL
ORDER BY rater, task_id, model, partner, dimension
`;

const TASKS_BEFORE = `
WITH named AS (
  SELECT e.episode_id, ${TASK_ID_BEFORE} AS task_id, any_value(e.codename) AS codename,
         string_agg(coalesce(q.character, q.agent_ref, 'agent ' || q.agent), ' & ' ORDER BY ${TASK_REF}) AS characters
  FROM episodes e
  JOIN participants q USING (episode_id)
  WHERE e.benchmark = 'sotopia'
  GROUP BY e.episode_id
)
SELECT task_id, arg_min(codename, episode_id) AS codename, arg_min(characters, episode_id) AS characters, count(*)::INTEGER AS episodes
FROM named
GROUP BY task_id
ORDER BY task_id
`;

interface StatRow {
  rater: string; rater_kind: string; task_id: string; model: string; partner: string; dimension: string; n: number; sum: number; sum_sq: number;
}

async function samplesStore() {
  const store = await tempStore();
  for (const s of SAMPLE_IMPORTS.filter((x) => x.format.startsWith("sotopia"))) await importFiles(store, s.format, [s.path]);
  return store;
}

describe("the rewritten SOTOPIA statements give the results of the statements before", () => {
  it("SOTOPIA_STATS_SQL: the same groups in the same order, the same counts, sums equal to 1e-9", async () => {
    const store = await samplesStore();
    const before = await rows<StatRow>(store.conn, STATS_BEFORE);
    const now = await rows<StatRow>(store.conn, SOTOPIA_STATS_SQL);
    const key = (r: StatRow) => [r.rater, r.rater_kind, r.task_id, r.model, r.partner, r.dimension, r.n];
    expect(now.map(key)).toEqual(before.map(key));
    // The human-mean pseudo-rater and the overall rows are there, not only the raw scores.
    expect(now.filter((r) => r.rater === "humans").length).toBeGreaterThan(0);
    expect(now.filter((r) => r.dimension === "overall").length).toBeGreaterThan(0);
    for (const [i, r] of now.entries()) {
      expect(r.sum, JSON.stringify(key(r))).toBeCloseTo(before[i]!.sum, 9);
      expect(r.sum_sq, JSON.stringify(key(r))).toBeCloseTo(before[i]!.sum_sq, 9);
    }
  });

  it("SOTOPIA_TASKS_SQL: identical rows", async () => {
    const store = await samplesStore();
    expect(await rows(store.conn, SOTOPIA_TASKS_SQL)).toEqual(await rows(store.conn, TASKS_BEFORE));
  });
});
