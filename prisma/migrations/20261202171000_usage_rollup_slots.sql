-- migrate:up
-- The daily roll-ups get a `slot` (0..7, from the turn's session) in their unique key: every
-- turn of an agent used to update the same row in its commit transaction and hold that row's
-- lock until COMMIT, so concurrent commits of one busy agent queued on it. Now turns of
-- different sessions mostly update different rows; readers sum the slots. Existing rows are
-- slot 0.

ALTER TABLE "UsageDaily" ADD COLUMN "slot" SMALLINT NOT NULL DEFAULT 0;
DROP INDEX "UsageDaily_tenantId_agentId_day_key";
CREATE UNIQUE INDEX "UsageDaily_tenantId_agentId_day_slot_key" ON "UsageDaily"("tenantId", "agentId", "day", "slot");

ALTER TABLE "UsageOutcomeDaily" ADD COLUMN "slot" SMALLINT NOT NULL DEFAULT 0;
DROP INDEX "UsageOutcomeDaily_tenantId_agentId_day_code_key";
CREATE UNIQUE INDEX "UsageOutcomeDaily_tenantId_agentId_day_code_slot_key" ON "UsageOutcomeDaily"("tenantId", "agentId", "day", "code", "slot");

-- migrate:down
-- Folds the slots back into one row per key before restoring the old unique indexes.

WITH folded AS (
  DELETE FROM "UsageOutcomeDaily" WHERE "slot" <> 0
  RETURNING "tenantId", "agentId", "day", "code", "turns")
INSERT INTO "UsageOutcomeDaily" ("tenantId", "agentId", "day", "code", "turns", "slot")
SELECT "tenantId", "agentId", "day", "code", sum("turns"), 0 FROM folded GROUP BY 1, 2, 3, 4
ON CONFLICT ("tenantId", "agentId", "day", "code", "slot") DO UPDATE SET "turns" = "UsageOutcomeDaily"."turns" + EXCLUDED."turns";
DROP INDEX "UsageOutcomeDaily_tenantId_agentId_day_code_slot_key";
CREATE UNIQUE INDEX "UsageOutcomeDaily_tenantId_agentId_day_code_key" ON "UsageOutcomeDaily"("tenantId", "agentId", "day", "code");
ALTER TABLE "UsageOutcomeDaily" DROP COLUMN "slot";

WITH folded AS (
  DELETE FROM "UsageDaily" WHERE "slot" <> 0
  RETURNING *),
sums AS (
  SELECT "tenantId", "agentId", "day", sum("turns")::int AS turns, sum("deferredTurns")::int AS "deferredTurns",
    sum("failedTurns")::int AS "failedTurns", sum("llmCalls")::bigint AS "llmCalls", sum("inputTokens")::bigint AS "inputTokens",
    sum("outputTokens")::bigint AS "outputTokens", sum("cachedInputTokens")::bigint AS "cachedInputTokens",
    sum("queueWaitMs")::bigint AS "queueWaitMs", sum("modelMs")::bigint AS "modelMs", sum("toolsMs")::bigint AS "toolsMs",
    sum("commitMs")::bigint AS "commitMs", sum("totalMs")::bigint AS "totalMs",
    ARRAY(SELECT sum(b)::int FROM folded f2, unnest(f2."latencyBuckets") WITH ORDINALITY AS u(b, i)
          WHERE f2."tenantId" = f."tenantId" AND f2."agentId" = f."agentId" AND f2."day" = f."day"
          GROUP BY i ORDER BY i) AS "latencyBuckets"
  FROM folded f GROUP BY 1, 2, 3)
INSERT INTO "UsageDaily" ("tenantId", "agentId", "day", "slot", "turns", "deferredTurns", "failedTurns", "llmCalls", "inputTokens",
  "outputTokens", "cachedInputTokens", "queueWaitMs", "modelMs", "toolsMs", "commitMs", "totalMs", "latencyBuckets")
SELECT "tenantId", "agentId", "day", 0, turns, "deferredTurns", "failedTurns", "llmCalls", "inputTokens", "outputTokens",
  "cachedInputTokens", "queueWaitMs", "modelMs", "toolsMs", "commitMs", "totalMs", "latencyBuckets" FROM sums
ON CONFLICT ("tenantId", "agentId", "day", "slot") DO UPDATE SET
  "turns" = "UsageDaily"."turns" + EXCLUDED."turns",
  "deferredTurns" = "UsageDaily"."deferredTurns" + EXCLUDED."deferredTurns",
  "failedTurns" = "UsageDaily"."failedTurns" + EXCLUDED."failedTurns",
  "llmCalls" = "UsageDaily"."llmCalls" + EXCLUDED."llmCalls",
  "inputTokens" = "UsageDaily"."inputTokens" + EXCLUDED."inputTokens",
  "outputTokens" = "UsageDaily"."outputTokens" + EXCLUDED."outputTokens",
  "cachedInputTokens" = "UsageDaily"."cachedInputTokens" + EXCLUDED."cachedInputTokens",
  "queueWaitMs" = "UsageDaily"."queueWaitMs" + EXCLUDED."queueWaitMs",
  "modelMs" = "UsageDaily"."modelMs" + EXCLUDED."modelMs",
  "toolsMs" = "UsageDaily"."toolsMs" + EXCLUDED."toolsMs",
  "commitMs" = "UsageDaily"."commitMs" + EXCLUDED."commitMs",
  "totalMs" = "UsageDaily"."totalMs" + EXCLUDED."totalMs",
  "latencyBuckets" = ARRAY(
    SELECT COALESCE(old, 0) + COALESCE(new, 0)
      FROM unnest("UsageDaily"."latencyBuckets", EXCLUDED."latencyBuckets") WITH ORDINALITY AS b(old, new, i)
     ORDER BY i);
DROP INDEX "UsageDaily_tenantId_agentId_day_slot_key";
CREATE UNIQUE INDEX "UsageDaily_tenantId_agentId_day_key" ON "UsageDaily"("tenantId", "agentId", "day");
ALTER TABLE "UsageDaily" DROP COLUMN "slot";
