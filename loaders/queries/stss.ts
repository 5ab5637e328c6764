// SQL behind the STSS page and reports. Grouping and joining here; every
// score (SR, GCSR, micro / macro, the Appendix A.1 rules, Table 4) is computed
// from these rows by src/lib/stss.ts and src/lib/stss-action.ts.

/**
 * One row per (conversation run, level, rater, judging run): the conditions
 * that verdict set judged and those that failed (value 0). A verdict set is
 * one rater in one run: imported verdicts have run_id '' and each judge run
 * its own id, so a rerun under the same rater name is a second set, never
 * merged into the first. n_verdicts counts rows, n_conditions distinct
 * condition names: they differ only when a set judged a condition twice,
 * which the library refuses to score. A conversation run nobody judged
 * appears once with level, rater and counts NULL, so it still counts as a
 * conversation of its task. off_target marks an appointment conversation
 * that is not between the task's performer and a target person (STSS §3.2
 * leaves those out of the benchmark; the library's appointmentPartners rule
 * decides).
 */
export const STSS_CONVERSATIONS_SQL = `
WITH verdicts AS (
  SELECT episode_id, split_part(dimension, ':', 1) AS level, split_part(dimension, ':', 2) AS condition, rater, run_id, value
  FROM ratings
  WHERE split_part(dimension, ':', 1) IN ('conversation', 'summary') AND episode_id IN (SELECT episode_id FROM stss_conversations)
),
judged AS (
  SELECT episode_id, level, rater, run_id, count(*)::INTEGER AS n_verdicts, count(DISTINCT condition)::INTEGER AS n_conditions,
         count(DISTINCT condition) FILTER (WHERE value = 1)::INTEGER AS n_held,
         list(DISTINCT condition ORDER BY condition) AS conditions,
         coalesce(list(DISTINCT condition ORDER BY condition) FILTER (WHERE value = 0), []::VARCHAR[]) AS failed
  FROM verdicts GROUP BY episode_id, level, rater, run_id
)
SELECT c.episode_id, p.model, c.architecture, c.task_id, t.category, c.conversation_id, c.partner,
       (t.category = 'appointment' AND (
          (len(coalesce(t.targets, []::VARCHAR[])) > 0 AND NOT list_contains(t.targets, c.partner))
          OR (c.performer IS NOT NULL AND c.performer <> t.performer))) AS off_target,
       j.level, j.rater, j.run_id, j.n_verdicts, j.n_conditions, j.n_held, j.conditions, j.failed
FROM stss_conversations c
JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1
JOIN stss_tasks t ON t.task_id = c.task_id
LEFT JOIN judged j ON j.episode_id = c.episode_id
ORDER BY p.model, c.architecture, c.task_id, c.conversation_id, j.level, j.rater, j.run_id
`;

/**
 * One row per simulation run: the observed outcome, the task's type and its
 * sub-task keywords in order, conversations initiated and demanded, and any
 * score the log carries (by rater).
 */
export const STSS_RUNS_SQL = `
WITH logged AS (
  SELECT episode_id, list(rater ORDER BY rater) AS logged_raters, list(value ORDER BY rater) AS logged_scores
  FROM ratings WHERE dimension = 'task_score' GROUP BY episode_id
)
SELECT r.episode_id, p.model, r.architecture, r.task_id, t.category, r.run_label, r.background_characters, r.participants,
       r.performer_attended, r.appointment,
       CASE WHEN r.subtasks_reported THEN coalesce(r.subtasks_done, []::VARCHAR[]) END AS subtasks_done,
       coalesce((SELECT list(g.keyword ORDER BY g.ord) FROM stss_task_goals g WHERE g.episode_id = t.episode_id), []::VARCHAR[]) AS subtasks_required,
       r.conversations_initiated, r.conversations_demanded, l.logged_raters, l.logged_scores
FROM stss_runs r
JOIN participants p ON p.episode_id = r.episode_id AND p.agent = 1
JOIN stss_tasks t ON t.task_id = r.task_id
LEFT JOIN logged l ON l.episode_id = r.episode_id
ORDER BY p.model, r.architecture, r.task_id, r.run_label
`;

/** The task definitions: the benchmark's type, the paper's type, and what the task asks. */
export const STSS_TASKS_SQL = `
SELECT t.task_id, t.source_type, t.category, t.performer, t.target_num, len(coalesce(t.characters, []::VARCHAR[]))::INTEGER AS characters,
       (SELECT count(*) FROM stss_task_goals g WHERE g.episode_id = t.episode_id)::INTEGER AS goals, e.synthetic
FROM stss_tasks t JOIN episodes e USING (episode_id)
ORDER BY t.category, t.task_id
`;

/**
 * How many conversation runs have rows under two (model, architecture) pairs
 * in STSS_CONVERSATIONS_SQL: none in a store the importers wrote (a run has
 * one performer model and one architecture). The STSS first view is computed
 * one pair at a time only when it is 0, since a run's counts then add.
 */
export const STSS_RUNS_ACROSS_PAIRS_SQL = `
SELECT count(*)::INTEGER AS runs FROM (
  SELECT c.episode_id
  FROM stss_conversations c
  JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1
  GROUP BY c.episode_id
  HAVING count(DISTINCT p.model) > 1 OR count(DISTINCT c.architecture) > 1
)
`;
