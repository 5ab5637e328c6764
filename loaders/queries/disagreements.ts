// SQL behind the disagreement finder (src/lib/disagreements.ts). The scores
// are the agreement audit's own rows (AGREEMENT_ROWS_SQL); this file adds
// only what ranking does not need: the raters' rationales, fetched for the
// few episodes that made the list, so a store of any size sends a bounded
// amount of text.

/**
 * Each rater's rationale per (episode, agent, dimension) on the SOTOPIA
 * episodes listed in $1 (a VARCHAR list): the distinct non-blank texts of its
 * runs, joined by " / " in text order so the result does not depend on the
 * order the runs were imported in.
 */
export const DISAGREEMENT_RATIONALES_SQL = `
SELECT r.episode_id, r.agent, r.dimension, r.rater,
       string_agg(DISTINCT r.rationale, ' / ' ORDER BY r.rationale) AS rationale
FROM ratings r JOIN episodes e USING (episode_id)
WHERE e.benchmark = 'sotopia' AND list_contains($1, r.episode_id) AND trim(coalesce(r.rationale, '')) <> ''
GROUP BY r.episode_id, r.agent, r.dimension, r.rater
ORDER BY r.episode_id, r.agent, r.dimension, r.rater
`;
