// SQL behind the HSII page and reports. The stage counts, rates and scores are
// computed from these rows by src/lib/hsii.ts.

/**
 * One row per (case episode, judging rater): stages 1 and 2 as used, what the
 * log and the parser each said, and the stage-3 / stage-4 verdicts in both
 * orders. A case nobody judged appears once with a NULL rater.
 */
export const HSII_CASES_SQL = `
WITH judged AS (
  SELECT episode_id, rater,
         max(verdict) FILTER (WHERE stage = 3 AND position = 'forward') AS s3_forward,
         max(verdict) FILTER (WHERE stage = 3 AND position = 'swapped') AS s3_swapped,
         max(verdict) FILTER (WHERE stage = 4 AND position = 'forward') AS s4_forward,
         max(verdict) FILTER (WHERE stage = 4 AND position = 'swapped') AS s4_swapped
  FROM hsii_judgments GROUP BY episode_id, rater
)
SELECT c.episode_id, p.model, c.case_id, c.cluster, c.topic, c.cot, c.parsed, c.target_correct,
       c.logged_parsed, c.parser_parsed, c.logged_target, c.parser_target, c.parse_route,
       j.rater, j.s3_forward, j.s3_swapped, j.s4_forward, j.s4_swapped
FROM hsii_cases c
JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1
LEFT JOIN judged j ON j.episode_id = c.episode_id
ORDER BY p.model, c.case_id, c.cot, j.rater
`;

/**
 * One row per (episode, COT variant): whether each round's answer matched gold,
 * in round order. Keyed by episode, not by case: two runs of one case (or its
 * runs with and without COT) are separate (i, j) of Definition 2.
 */
export const HSII_COT_SQL = `
SELECT r.episode_id, p.model, c.case_id, c.cluster, c.cot, r.variant, list(r.correct ORDER BY r.round) AS rounds
FROM hsii_cot_rounds r
JOIN hsii_cases c USING (episode_id)
JOIN participants p ON p.episode_id = r.episode_id AND p.agent = 1
GROUP BY r.episode_id, p.model, c.case_id, c.cluster, c.cot, r.variant
ORDER BY p.model, c.case_id, r.episode_id, r.variant
`;
