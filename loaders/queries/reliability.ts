// SQL behind the reliability report's clustered bootstrap: the scenario of
// every SOTOPIA episode that two or more raters scored (loaders/queries/agreement.ts).

/** One row per multiply-rated SOTOPIA episode: its scenario id (null when the log named none). */
export const EPISODE_SCENARIOS_SQL = `
SELECT e.episode_id, e.scenario_id
FROM episodes e
WHERE e.benchmark = 'sotopia'
  AND e.episode_id IN (SELECT episode_id FROM ratings GROUP BY episode_id HAVING count(DISTINCT rater) >= 2)
ORDER BY e.episode_id
`;
