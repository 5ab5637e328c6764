// The judge panel's choices for the agreement page's reliability section,
// without shipping rows to the page: every LLM rater of the agreement rows,
// with its scores on episodes a human annotator also scored and its scores in
// all. The page orders and picks from these exactly as loadReliabilityData
// did from the rows (src/client/reliability.ts); the rows themselves go
// straight to the reliability worker.

import {AGREEMENT_ROWS_SQL} from "../../loaders/queries/agreement.js";
import {rows} from "../../loaders/store/db.js";
import {redactedQuery} from "./redaction.js";
import {withStore} from "./store.js";

const raters = await withStore(async ({conn}) => rows<{rater: string; on_annotated: number; total: number}>(conn, await redactedQuery(conn, `
  WITH s AS (${AGREEMENT_ROWS_SQL}),
  annotated AS (SELECT DISTINCT episode_id FROM s WHERE rater_kind = 'human')
  SELECT rater,
         (count(*) FILTER (WHERE episode_id IN (SELECT episode_id FROM annotated)))::INTEGER AS on_annotated,
         count(*)::INTEGER AS total
  FROM s WHERE rater_kind = 'llm' GROUP BY rater ORDER BY rater
`)));

process.stdout.write(JSON.stringify(raters));
