// SQL over the store for the SOTOPIA pages and reports. The loaders and the
// CLI run these same statements, then apply the same library formulas.

/**
 * Sufficient statistics (n, sum, sum of squares) of every rater's scores per
 * (model, partner model, dimension), plus an `overall` row group built from
 * instances scored on all seven dimensions (overall = mean of the seven,
 * src/lib/sotopia.ts overallScore). One instance is (episode, agent, rater).
 * For dyadic episodes the partner is the other seat's model.
 */
export const SOTOPIA_STATS_SQL = `
WITH sotopia_dims AS (
  SELECT dimension FROM dimensions WHERE benchmark = 'sotopia'
),
scored AS (
  SELECT r.episode_id, r.agent, r.rater, r.rater_kind, r.dimension, r.value,
         p.model,
         coalesce((SELECT string_agg(DISTINCT q.model, ' + ' ORDER BY q.model)
                   FROM participants q WHERE q.episode_id = r.episode_id AND q.agent <> r.agent), '') AS partner
  FROM ratings r
  JOIN episodes e USING (episode_id)
  JOIN participants p ON p.episode_id = r.episode_id AND p.agent = r.agent
  WHERE e.benchmark = 'sotopia' AND r.dimension IN (SELECT dimension FROM sotopia_dims)
),
overall AS (
  SELECT episode_id, agent, rater, rater_kind, 'overall' AS dimension, avg(value) AS value, model, partner
  FROM scored
  GROUP BY ALL
  HAVING count(*) = (SELECT count(*) FROM sotopia_dims)
)
SELECT rater, rater_kind, model, partner, dimension,
       count(*)::INTEGER AS n, sum(value)::DOUBLE AS sum, sum(value * value)::DOUBLE AS sum_sq
FROM (SELECT * FROM scored UNION ALL BY NAME SELECT * FROM overall)
GROUP BY ALL
ORDER BY rater, model, partner, dimension
`;
