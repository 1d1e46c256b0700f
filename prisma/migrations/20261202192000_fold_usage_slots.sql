-- migrate:up
-- Past days' usage roll-ups back to one row per (tenant, agent, day). Slots (migration
-- 20261202171000) spread an agent's concurrent commits over 8 rows, but only the current day
-- sees commits; past days kept 8x the rows every dashboard read sums. sb_fold_usage_slots moves
-- the slots of days before `p_before` into slot 0, summed, and returns how many slot-0 rows
-- (usage and outcome) it wrote. Each table is one statement (DELETE ... RETURNING feeding an
-- upsert), so a turn committed meanwhile is counted once: before the fold (its row is moved)
-- or after it (a new slot row, folded next time). Readers sum slots either way; the worker
-- runs this hourly (apps/worker/src/usage/usage-slot-folder.ts).
CREATE FUNCTION sb_fold_usage_slots(p_before DATE) RETURNS INT LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_daily INT;
  v_outcomes INT;
BEGIN
  WITH moved AS (
    DELETE FROM "UsageDaily" WHERE "day" < p_before AND "slot" <> 0
    RETURNING *),
  -- Element-wise sum of the moved rows' bucket vectors (of any lengths), per (tenant, agent, day).
  bucket_sums AS (
    SELECT m."tenantId", m."agentId", m."day", b.i, sum(b.n)::int AS n
      FROM moved AS m, unnest(m."latencyBuckets") WITH ORDINALITY AS b(n, i)
     GROUP BY 1, 2, 3, 4),
  buckets AS (
    SELECT "tenantId", "agentId", "day", array_agg(n ORDER BY i) AS "latencyBuckets"
      FROM bucket_sums GROUP BY 1, 2, 3),
  summed AS (
    SELECT m."tenantId", m."agentId", m."day",
           sum(m."turns")::int AS "turns", sum(m."deferredTurns")::int AS "deferredTurns", sum(m."failedTurns")::int AS "failedTurns",
           sum(m."llmCalls")::bigint AS "llmCalls", sum(m."inputTokens")::bigint AS "inputTokens", sum(m."outputTokens")::bigint AS "outputTokens",
           sum(m."cachedInputTokens")::bigint AS "cachedInputTokens", sum(m."queueWaitMs")::bigint AS "queueWaitMs",
           sum(m."modelMs")::bigint AS "modelMs", sum(m."toolsMs")::bigint AS "toolsMs", sum(m."commitMs")::bigint AS "commitMs",
           sum(m."totalMs")::bigint AS "totalMs"
      FROM moved AS m
     GROUP BY 1, 2, 3)
  -- Each (tenant, agent, day) is added to its slot-0 row (sb_add_usage_daily: the upsert every
  -- roll-up write uses); the moved rows are slots <> 0, so the two never meet.
  SELECT COALESCE(sum(sb_add_usage_daily(s."tenantId", s."agentId", s."day", 0::smallint,
           s."turns", s."deferredTurns", s."failedTurns", s."llmCalls", s."inputTokens", s."outputTokens",
           s."cachedInputTokens", s."queueWaitMs", s."modelMs", s."toolsMs", s."commitMs", s."totalMs",
           COALESCE(b."latencyBuckets", ARRAY[]::int[]))), 0)::int
    INTO v_daily
    FROM summed AS s LEFT JOIN buckets AS b USING ("tenantId", "agentId", "day");

  WITH moved AS (
    DELETE FROM "UsageOutcomeDaily" WHERE "day" < p_before AND "slot" <> 0
    RETURNING "tenantId", "agentId", "day", "code", "turns")
  INSERT INTO "UsageOutcomeDaily" ("tenantId", "agentId", "day", "code", "slot", "turns")
  SELECT "tenantId", "agentId", "day", "code", 0, sum("turns")::int FROM moved GROUP BY "tenantId", "agentId", "day", "code"
  ON CONFLICT ("tenantId", "agentId", "day", "code", "slot") DO UPDATE SET "turns" = "UsageOutcomeDaily"."turns" + EXCLUDED."turns";
  GET DIAGNOSTICS v_outcomes = ROW_COUNT;

  RETURN v_daily + v_outcomes;
END
$$;

-- migrate:down
DROP FUNCTION sb_fold_usage_slots(DATE);
