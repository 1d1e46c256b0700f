-- migrate:up
-- Cost in money (issue 25, docs/cost.md). The worker prices each model call of a turn at the
-- price in force (ModelPrice / TenantModelPrice) and hands sb_commit_turn the turn's cost in
-- micros and its cost lines; the commit stores them in the same statement as the turn:
--   Turn.costMicros / unpricedCalls (the calls, each with its cost, are in Turn.trace);
--   Session.costMicros, the conversation's running total;
--   UsageDaily.costMicros / unpricedCalls / completedRuns, beside the usage the quotas read;
--   UsageCostDaily, cost by day, agent, channel, model and who spent it: `part` is `step`
--   (flowId and stepId set), `understand` or `idle` (both '').
-- The roll-up functions take the new sums as trailing parameters with defaults, so callers
-- that know no cost (recordTurnUsage) keep working, and the hourly slot fold moves them too.

ALTER TABLE "Turn" ADD COLUMN "costMicros" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Turn" ADD COLUMN "unpricedCalls" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Session" ADD COLUMN "costMicros" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "UsageDaily" ADD COLUMN "costMicros" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "UsageDaily" ADD COLUMN "unpricedCalls" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "UsageDaily" ADD COLUMN "completedRuns" BIGINT NOT NULL DEFAULT 0;

CREATE TABLE "UsageCostDaily" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "tenantId" UUID NOT NULL,
  "agentId" UUID NOT NULL,
  "day" DATE NOT NULL,
  "slot" SMALLINT NOT NULL DEFAULT 0,
  "channelId" UUID NOT NULL,
  "provider" TEXT NOT NULL,
  "model" TEXT NOT NULL,
  "part" TEXT NOT NULL,
  "flowId" TEXT NOT NULL DEFAULT '',
  "stepId" TEXT NOT NULL DEFAULT '',
  "llmCalls" BIGINT NOT NULL DEFAULT 0,
  "inputTokens" BIGINT NOT NULL DEFAULT 0,
  "cachedInputTokens" BIGINT NOT NULL DEFAULT 0,
  "outputTokens" BIGINT NOT NULL DEFAULT 0,
  "costMicros" BIGINT NOT NULL DEFAULT 0,
  "unpricedCalls" BIGINT NOT NULL DEFAULT 0,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "UsageCostDaily_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "UsageCostDaily_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "UsageCostDaily_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "UsageCostDaily_group_key"
  ON "UsageCostDaily"("tenantId", "agentId", "day", "slot", "channelId", "provider", "model", "part", "flowId", "stepId");
CREATE INDEX "UsageCostDaily_tenantId_day_idx" ON "UsageCostDaily"("tenantId", "day");
ALTER TABLE "UsageCostDaily" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "UsageCostDaily" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

-- The roll-up functions, with the cost sums as trailing parameters (plpgsql callers resolve them
-- by name at run time, so the old arity still finds the new function through the defaults).
DROP FUNCTION sb_record_turn_usage(UUID, UUID, DATE, SMALLINT, INT, INT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, INT[], TEXT[]);
DROP FUNCTION sb_add_usage_daily(UUID, UUID, DATE, SMALLINT, INT, INT, INT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, INT[]);

CREATE FUNCTION sb_add_usage_daily(
  p_tenant UUID, p_agent UUID, p_day DATE, p_slot SMALLINT,
  p_turns INT, p_deferred INT, p_failed INT,
  p_llm_calls BIGINT, p_input_tokens BIGINT, p_output_tokens BIGINT, p_cached_input_tokens BIGINT,
  p_queue_wait_ms BIGINT, p_model_ms BIGINT, p_tools_ms BIGINT, p_commit_ms BIGINT, p_total_ms BIGINT,
  p_latency_buckets INT[], p_cost_micros BIGINT DEFAULT 0, p_unpriced_calls BIGINT DEFAULT 0, p_completed_runs BIGINT DEFAULT 0
) RETURNS INT LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  INSERT INTO "UsageDaily" ("tenantId", "agentId", "day", "slot", "turns", "deferredTurns", "failedTurns", "llmCalls",
    "inputTokens", "outputTokens", "cachedInputTokens", "queueWaitMs", "modelMs", "toolsMs", "commitMs", "totalMs",
    "latencyBuckets", "costMicros", "unpricedCalls", "completedRuns", "updatedAt")
  VALUES (p_tenant, p_agent, p_day, p_slot, p_turns, p_deferred, p_failed, p_llm_calls,
    p_input_tokens, p_output_tokens, p_cached_input_tokens, p_queue_wait_ms, p_model_ms, p_tools_ms, p_commit_ms, p_total_ms,
    p_latency_buckets, p_cost_micros, p_unpriced_calls, p_completed_runs, now())
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
    "costMicros" = "UsageDaily"."costMicros" + EXCLUDED."costMicros",
    "unpricedCalls" = "UsageDaily"."unpricedCalls" + EXCLUDED."unpricedCalls",
    "completedRuns" = "UsageDaily"."completedRuns" + EXCLUDED."completedRuns",
    "latencyBuckets" = ARRAY(
      SELECT COALESCE(old, 0) + COALESCE(new, 0)
        FROM unnest("UsageDaily"."latencyBuckets", EXCLUDED."latencyBuckets") WITH ORDINALITY AS b(old, new, i)
       ORDER BY i),
    "updatedAt" = now();
  RETURN 1;
END
$$;

CREATE FUNCTION sb_record_turn_usage(
  p_tenant UUID, p_agent UUID, p_day DATE, p_slot SMALLINT,
  p_deferred INT, p_failed INT,
  p_llm_calls BIGINT, p_input_tokens BIGINT, p_output_tokens BIGINT, p_cached_input_tokens BIGINT,
  p_queue_wait_ms BIGINT, p_model_ms BIGINT, p_tools_ms BIGINT, p_commit_ms BIGINT, p_total_ms BIGINT,
  p_latency_buckets INT[], p_outcome_codes TEXT[],
  p_cost_micros BIGINT DEFAULT 0, p_unpriced_calls BIGINT DEFAULT 0, p_completed_runs BIGINT DEFAULT 0
) RETURNS VOID LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM sb_add_usage_daily(p_tenant, p_agent, p_day, p_slot, 1, p_deferred, p_failed,
    p_llm_calls, p_input_tokens, p_output_tokens, p_cached_input_tokens,
    p_queue_wait_ms, p_model_ms, p_tools_ms, p_commit_ms, p_total_ms, p_latency_buckets,
    p_cost_micros, p_unpriced_calls, p_completed_runs);

  IF cardinality(p_outcome_codes) > 0 THEN
    INSERT INTO "UsageOutcomeDaily" ("tenantId", "agentId", "day", "code", "turns", "slot")
    SELECT p_tenant, p_agent, p_day, code, 1, p_slot FROM (SELECT DISTINCT unnest(p_outcome_codes) AS code) AS codes
    ON CONFLICT ("tenantId", "agentId", "day", "code", "slot") DO UPDATE SET "turns" = "UsageOutcomeDaily"."turns" + 1;
  END IF;
END
$$;

CREATE OR REPLACE FUNCTION sb_commit_turn(p JSONB) RETURNS JSONB LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_turn UUID := (p->>'turnId')::uuid;
  v_tenant UUID := (p->>'tenantId')::uuid;
  v_session UUID := (p->>'sessionId')::uuid;
  v_channel UUID := (p->>'channelId')::uuid;
  v_answered UUID[] := ARRAY(SELECT jsonb_array_elements_text(p->'answered')::uuid);
  v_expected INT := (p->>'expectedVersion')::int;
  v_version INT := (p->>'expectedVersion')::int + 1;
  v_bounds INT[] := ARRAY(SELECT jsonb_array_elements_text(p->'latencyBounds')::int);
  v_count INT;
  v_reply JSONB;
  v_inserted RECORD;
  v_replies JSONB := '[]'::jsonb;
  v_commit_ms INT;
  v_total_ms INT;
  v_buckets INT[];
  -- Replies are delivered to the channel's webhook as it is at commit (null: none).
  v_webhook TEXT := (SELECT "webhookUrl" FROM "Channel" WHERE "id" = (p->>'channelId')::uuid);
  -- The worker's clock at commit, as before this function: visibleAt times are computed from it.
  v_now TIMESTAMPTZ := to_timestamp((p->>'now')::double precision / 1000);
  -- The turn's cost in micros (a decimal string: JSON has no bigint), priced by the worker.
  v_cost BIGINT := COALESCE((p->>'costMicros')::bigint, 0);
  v_day DATE := (to_timestamp((p->>'now')::double precision / 1000) AT TIME ZONE 'UTC')::date;
BEGIN
  -- A commit stuck behind a row lock fails (and its job retries) rather than hold a worker slot.
  PERFORM set_config('lock_timeout', '5s', true);

  INSERT INTO "Turn" ("id", "tenantId", "sessionId", "agentId", "agentVersion", "provider", "model", "llmCalls",
    "inputTokens", "outputTokens", "cachedInputTokens", "outcomeCodes", "outcomes", "trace", "queueWaitMs", "modelMs", "toolsMs",
    "costMicros", "unpricedCalls")
  VALUES (v_turn, v_tenant, v_session, (p->>'agentId')::uuid, (p->>'agentVersion')::int, p->>'provider', p->>'model',
    (p->>'llmCalls')::int, (p->>'inputTokens')::int, (p->>'outputTokens')::int, (p->>'cachedInputTokens')::int,
    ARRAY(SELECT jsonb_array_elements_text(p->'outcomeCodes')), p->'outcomes', p->'trace',
    (p->>'queueWaitMs')::int, (p->>'modelMs')::int, (p->>'toolsMs')::int,
    v_cost, (p->>'unpricedCalls')::int);

  -- Only messages still queued: a second commit for the same message rolls back whole.
  UPDATE "Message" SET "status" = (p->>'inboundStatus')::"MessageStatus", "turnId" = v_turn, "answeredAt" = v_now
   WHERE "id" = ANY (v_answered) AND "sessionId" = v_session AND "tenantId" = v_tenant
     AND "direction" = 'inbound' AND "status" = 'queued';
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count <> cardinality(v_answered) THEN
    RAISE EXCEPTION 'message-already-answered' USING ERRCODE = 'SB409';
  END IF;

  -- Behind the version check: a stale save rolls back and the worker replays the turn.
  UPDATE "Session" SET
      "state" = CASE WHEN jsonb_typeof(p->'state') = 'object' THEN p->'state' ELSE "state" END,
      "version" = v_version,
      "costMicros" = "costMicros" + v_cost,
      "updatedAt" = now()
   WHERE "id" = v_session AND "tenantId" = v_tenant AND "version" = v_expected;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count <> 1 THEN
    RAISE EXCEPTION 'session-version-conflict' USING ERRCODE = 'SB412';
  END IF;

  -- One insert per reply, in order (their seq is the order shown). A reply key the session has
  -- already (a replay) inserts nothing and gets no second delivery.
  FOR v_reply IN SELECT value FROM jsonb_array_elements(p->'replies') LOOP
    INSERT INTO "Message" ("tenantId", "sessionId", "channelId", "direction", "status", "text", "key", "kind", "turnId", "visibleAt")
    VALUES (v_tenant, v_session, v_channel, 'outbound', 'sent', v_reply->>'text', v_reply->>'key', v_reply->>'kind', v_turn,
      to_timestamp((v_reply->>'visibleAt')::double precision / 1000))
    ON CONFLICT ("sessionId", "key") DO NOTHING
    RETURNING "id", "text", "visibleAt" INTO v_inserted;
    CONTINUE WHEN NOT FOUND;
    v_replies := v_replies || jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
      'id', v_inserted."id", 'text', v_inserted."text",
      'visibleAt', round(extract(epoch FROM v_inserted."visibleAt") * 1000)::bigint)));
    IF v_webhook IS NOT NULL THEN
      -- A delayed reply is delivered when it becomes visible, not before.
      INSERT INTO "Delivery" ("tenantId", "channelId", "messageId", "url", "nextAttemptAt")
      VALUES (v_tenant, v_channel, v_inserted."id", v_webhook, COALESCE(v_inserted."visibleAt", v_now))
      ON CONFLICT ("messageId") DO NOTHING;
    END IF;
  END LOOP;

  INSERT INTO "Wake" ("tenantId", "sessionId", "key", "dueAt")
  SELECT v_tenant, v_session, w->>'key', to_timestamp((w->>'at')::double precision / 1000)
    FROM jsonb_array_elements(p->'wakes') AS w
  ON CONFLICT ("sessionId", "key") DO NOTHING;

  IF p->>'firedWake' IS NOT NULL THEN
    UPDATE "Wake" SET "status" = 'fired', "firedAt" = v_now, "updatedAt" = now()
     WHERE "sessionId" = v_session AND "key" = p->>'firedWake' AND "status" = 'scheduled';
  END IF;

  -- The database's own time for the commit; the turn's time before it came in elapsedMs.
  v_commit_ms := round(extract(epoch FROM clock_timestamp() - statement_timestamp()) * 1000);
  v_total_ms := (p->>'elapsedMs')::int + v_commit_ms;
  UPDATE "Turn" SET "commitMs" = v_commit_ms, "totalMs" = v_total_ms WHERE "id" = v_turn;

  -- The latency bucket: the first bound at or above totalMs (libs/db latency-buckets.ts).
  v_buckets := array_fill(0, ARRAY[cardinality(v_bounds) + 1]);
  v_buckets[1 + (SELECT count(*) FROM unnest(v_bounds) AS b WHERE b < v_total_ms)] := 1;
  -- Last: the roll-up row is shared with other sessions' turns (see sb_record_turn_usage).
  PERFORM sb_record_turn_usage(v_tenant, (p->>'agentId')::uuid, (v_now AT TIME ZONE 'UTC')::date, (p->>'usageSlot')::smallint,
    CASE WHEN (p->>'deferred')::boolean THEN 1 ELSE 0 END, CASE WHEN (p->>'failed')::boolean THEN 1 ELSE 0 END,
    (p->>'llmCalls')::bigint, (p->>'inputTokens')::bigint, (p->>'outputTokens')::bigint, (p->>'cachedInputTokens')::bigint,
    (p->>'queueWaitMs')::bigint, (p->>'modelMs')::bigint, (p->>'toolsMs')::bigint, v_commit_ms, v_total_ms,
    v_buckets, ARRAY(SELECT jsonb_array_elements_text(p->'outcomeCodes')),
    v_cost, (p->>'unpricedCalls')::bigint, COALESCE((p->>'completedRuns')::bigint, 0));

  -- The cost lines ({provider, model, part, flowId, stepId, llmCalls, tokens, costMicros,
  -- unpricedCalls}), sorted by the worker so concurrent commits lock shared rows in one order.
  INSERT INTO "UsageCostDaily" ("tenantId", "agentId", "day", "slot", "channelId", "provider", "model", "part", "flowId", "stepId",
    "llmCalls", "inputTokens", "cachedInputTokens", "outputTokens", "costMicros", "unpricedCalls", "updatedAt")
  SELECT v_tenant, (p->>'agentId')::uuid, v_day, (p->>'usageSlot')::smallint, v_channel, l->>'provider', l->>'model', l->>'part',
         l->>'flowId', l->>'stepId', (l->>'llmCalls')::bigint, (l->>'inputTokens')::bigint, (l->>'cachedInputTokens')::bigint,
         (l->>'outputTokens')::bigint, (l->>'costMicros')::bigint, (l->>'unpricedCalls')::bigint, now()
    FROM jsonb_array_elements(COALESCE(p->'costs', '[]'::jsonb)) WITH ORDINALITY AS c(l, i)
   ORDER BY i
  ON CONFLICT ("tenantId", "agentId", "day", "slot", "channelId", "provider", "model", "part", "flowId", "stepId") DO UPDATE SET
    "llmCalls" = "UsageCostDaily"."llmCalls" + EXCLUDED."llmCalls",
    "inputTokens" = "UsageCostDaily"."inputTokens" + EXCLUDED."inputTokens",
    "cachedInputTokens" = "UsageCostDaily"."cachedInputTokens" + EXCLUDED."cachedInputTokens",
    "outputTokens" = "UsageCostDaily"."outputTokens" + EXCLUDED."outputTokens",
    "costMicros" = "UsageCostDaily"."costMicros" + EXCLUDED."costMicros",
    "unpricedCalls" = "UsageCostDaily"."unpricedCalls" + EXCLUDED."unpricedCalls",
    "updatedAt" = now();

  RETURN jsonb_build_object('version', v_version, 'commitMs', v_commit_ms, 'totalMs', v_total_ms, 'replies', v_replies);
END
$$;

CREATE OR REPLACE FUNCTION sb_fold_usage_slots(p_before DATE) RETURNS INT LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_daily INT;
  v_outcomes INT;
  v_costs INT;
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
           sum(m."totalMs")::bigint AS "totalMs", sum(m."costMicros")::bigint AS "costMicros",
           sum(m."unpricedCalls")::bigint AS "unpricedCalls", sum(m."completedRuns")::bigint AS "completedRuns"
      FROM moved AS m
     GROUP BY 1, 2, 3)
  -- Each (tenant, agent, day) is added to its slot-0 row (sb_add_usage_daily: the upsert every
  -- roll-up write uses); the moved rows are slots <> 0, so the two never meet.
  SELECT COALESCE(sum(sb_add_usage_daily(s."tenantId", s."agentId", s."day", 0::smallint,
           s."turns", s."deferredTurns", s."failedTurns", s."llmCalls", s."inputTokens", s."outputTokens",
           s."cachedInputTokens", s."queueWaitMs", s."modelMs", s."toolsMs", s."commitMs", s."totalMs",
           COALESCE(b."latencyBuckets", ARRAY[]::int[]), s."costMicros", s."unpricedCalls", s."completedRuns")), 0)::int
    INTO v_daily
    FROM summed AS s LEFT JOIN buckets AS b USING ("tenantId", "agentId", "day");

  WITH moved AS (
    DELETE FROM "UsageOutcomeDaily" WHERE "day" < p_before AND "slot" <> 0
    RETURNING "tenantId", "agentId", "day", "code", "turns")
  INSERT INTO "UsageOutcomeDaily" ("tenantId", "agentId", "day", "code", "slot", "turns")
  SELECT "tenantId", "agentId", "day", "code", 0, sum("turns")::int FROM moved GROUP BY "tenantId", "agentId", "day", "code"
  ON CONFLICT ("tenantId", "agentId", "day", "code", "slot") DO UPDATE SET "turns" = "UsageOutcomeDaily"."turns" + EXCLUDED."turns";
  GET DIAGNOSTICS v_outcomes = ROW_COUNT;

  WITH moved AS (
    DELETE FROM "UsageCostDaily" WHERE "day" < p_before AND "slot" <> 0
    RETURNING *)
  INSERT INTO "UsageCostDaily" ("tenantId", "agentId", "day", "slot", "channelId", "provider", "model", "part", "flowId", "stepId",
    "llmCalls", "inputTokens", "cachedInputTokens", "outputTokens", "costMicros", "unpricedCalls", "updatedAt")
  SELECT "tenantId", "agentId", "day", 0, "channelId", "provider", "model", "part", "flowId", "stepId",
         sum("llmCalls"), sum("inputTokens"), sum("cachedInputTokens"), sum("outputTokens"), sum("costMicros"), sum("unpricedCalls"), now()
    FROM moved GROUP BY "tenantId", "agentId", "day", "channelId", "provider", "model", "part", "flowId", "stepId"
  ON CONFLICT ("tenantId", "agentId", "day", "slot", "channelId", "provider", "model", "part", "flowId", "stepId") DO UPDATE SET
    "llmCalls" = "UsageCostDaily"."llmCalls" + EXCLUDED."llmCalls",
    "inputTokens" = "UsageCostDaily"."inputTokens" + EXCLUDED."inputTokens",
    "cachedInputTokens" = "UsageCostDaily"."cachedInputTokens" + EXCLUDED."cachedInputTokens",
    "outputTokens" = "UsageCostDaily"."outputTokens" + EXCLUDED."outputTokens",
    "costMicros" = "UsageCostDaily"."costMicros" + EXCLUDED."costMicros",
    "unpricedCalls" = "UsageCostDaily"."unpricedCalls" + EXCLUDED."unpricedCalls",
    "updatedAt" = now();
  GET DIAGNOSTICS v_costs = ROW_COUNT;

  RETURN v_daily + v_outcomes + v_costs;
END
$$;

-- migrate:down
DROP FUNCTION sb_record_turn_usage(UUID, UUID, DATE, SMALLINT, INT, INT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, INT[], TEXT[], BIGINT, BIGINT, BIGINT);
DROP FUNCTION sb_add_usage_daily(UUID, UUID, DATE, SMALLINT, INT, INT, INT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, INT[], BIGINT, BIGINT, BIGINT);
CREATE FUNCTION sb_add_usage_daily(
  p_tenant UUID, p_agent UUID, p_day DATE, p_slot SMALLINT,
  p_turns INT, p_deferred INT, p_failed INT,
  p_llm_calls BIGINT, p_input_tokens BIGINT, p_output_tokens BIGINT, p_cached_input_tokens BIGINT,
  p_queue_wait_ms BIGINT, p_model_ms BIGINT, p_tools_ms BIGINT, p_commit_ms BIGINT, p_total_ms BIGINT,
  p_latency_buckets INT[]
) RETURNS INT LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  INSERT INTO "UsageDaily" ("tenantId", "agentId", "day", "slot", "turns", "deferredTurns", "failedTurns", "llmCalls",
    "inputTokens", "outputTokens", "cachedInputTokens", "queueWaitMs", "modelMs", "toolsMs", "commitMs", "totalMs",
    "latencyBuckets", "updatedAt")
  VALUES (p_tenant, p_agent, p_day, p_slot, p_turns, p_deferred, p_failed, p_llm_calls,
    p_input_tokens, p_output_tokens, p_cached_input_tokens, p_queue_wait_ms, p_model_ms, p_tools_ms, p_commit_ms, p_total_ms,
    p_latency_buckets, now())
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
       ORDER BY i),
    "updatedAt" = now();
  RETURN 1;
END
$$;

CREATE FUNCTION sb_record_turn_usage(
  p_tenant UUID, p_agent UUID, p_day DATE, p_slot SMALLINT,
  p_deferred INT, p_failed INT,
  p_llm_calls BIGINT, p_input_tokens BIGINT, p_output_tokens BIGINT, p_cached_input_tokens BIGINT,
  p_queue_wait_ms BIGINT, p_model_ms BIGINT, p_tools_ms BIGINT, p_commit_ms BIGINT, p_total_ms BIGINT,
  p_latency_buckets INT[], p_outcome_codes TEXT[]
) RETURNS VOID LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM sb_add_usage_daily(p_tenant, p_agent, p_day, p_slot, 1, p_deferred, p_failed,
    p_llm_calls, p_input_tokens, p_output_tokens, p_cached_input_tokens,
    p_queue_wait_ms, p_model_ms, p_tools_ms, p_commit_ms, p_total_ms, p_latency_buckets);

  IF cardinality(p_outcome_codes) > 0 THEN
    INSERT INTO "UsageOutcomeDaily" ("tenantId", "agentId", "day", "code", "turns", "slot")
    SELECT p_tenant, p_agent, p_day, code, 1, p_slot FROM (SELECT DISTINCT unnest(p_outcome_codes) AS code) AS codes
    ON CONFLICT ("tenantId", "agentId", "day", "code", "slot") DO UPDATE SET "turns" = "UsageOutcomeDaily"."turns" + 1;
  END IF;
END
$$;

CREATE OR REPLACE FUNCTION sb_commit_turn(p JSONB) RETURNS JSONB LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_turn UUID := (p->>'turnId')::uuid;
  v_tenant UUID := (p->>'tenantId')::uuid;
  v_session UUID := (p->>'sessionId')::uuid;
  v_channel UUID := (p->>'channelId')::uuid;
  v_answered UUID[] := ARRAY(SELECT jsonb_array_elements_text(p->'answered')::uuid);
  v_expected INT := (p->>'expectedVersion')::int;
  v_version INT := (p->>'expectedVersion')::int + 1;
  v_bounds INT[] := ARRAY(SELECT jsonb_array_elements_text(p->'latencyBounds')::int);
  v_count INT;
  v_reply JSONB;
  v_inserted RECORD;
  v_replies JSONB := '[]'::jsonb;
  v_commit_ms INT;
  v_total_ms INT;
  v_buckets INT[];
  -- Replies are delivered to the channel's webhook as it is at commit (null: none).
  v_webhook TEXT := (SELECT "webhookUrl" FROM "Channel" WHERE "id" = (p->>'channelId')::uuid);
  -- The worker's clock at commit, as before this function: visibleAt times are computed from it.
  v_now TIMESTAMPTZ := to_timestamp((p->>'now')::double precision / 1000);
BEGIN
  -- A commit stuck behind a row lock fails (and its job retries) rather than hold a worker slot.
  PERFORM set_config('lock_timeout', '5s', true);

  INSERT INTO "Turn" ("id", "tenantId", "sessionId", "agentId", "agentVersion", "provider", "model", "llmCalls",
    "inputTokens", "outputTokens", "cachedInputTokens", "outcomeCodes", "outcomes", "trace", "queueWaitMs", "modelMs", "toolsMs")
  VALUES (v_turn, v_tenant, v_session, (p->>'agentId')::uuid, (p->>'agentVersion')::int, p->>'provider', p->>'model',
    (p->>'llmCalls')::int, (p->>'inputTokens')::int, (p->>'outputTokens')::int, (p->>'cachedInputTokens')::int,
    ARRAY(SELECT jsonb_array_elements_text(p->'outcomeCodes')), p->'outcomes', p->'trace',
    (p->>'queueWaitMs')::int, (p->>'modelMs')::int, (p->>'toolsMs')::int);

  -- Only messages still queued: a second commit for the same message rolls back whole.
  UPDATE "Message" SET "status" = (p->>'inboundStatus')::"MessageStatus", "turnId" = v_turn, "answeredAt" = v_now
   WHERE "id" = ANY (v_answered) AND "sessionId" = v_session AND "tenantId" = v_tenant
     AND "direction" = 'inbound' AND "status" = 'queued';
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count <> cardinality(v_answered) THEN
    RAISE EXCEPTION 'message-already-answered' USING ERRCODE = 'SB409';
  END IF;

  -- Behind the version check: a stale save rolls back and the worker replays the turn.
  UPDATE "Session" SET
      "state" = CASE WHEN jsonb_typeof(p->'state') = 'object' THEN p->'state' ELSE "state" END,
      "version" = v_version,
      "updatedAt" = now()
   WHERE "id" = v_session AND "tenantId" = v_tenant AND "version" = v_expected;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count <> 1 THEN
    RAISE EXCEPTION 'session-version-conflict' USING ERRCODE = 'SB412';
  END IF;

  -- One insert per reply, in order (their seq is the order shown). A reply key the session has
  -- already (a replay) inserts nothing and gets no second delivery.
  FOR v_reply IN SELECT value FROM jsonb_array_elements(p->'replies') LOOP
    INSERT INTO "Message" ("tenantId", "sessionId", "channelId", "direction", "status", "text", "key", "kind", "turnId", "visibleAt")
    VALUES (v_tenant, v_session, v_channel, 'outbound', 'sent', v_reply->>'text', v_reply->>'key', v_reply->>'kind', v_turn,
      to_timestamp((v_reply->>'visibleAt')::double precision / 1000))
    ON CONFLICT ("sessionId", "key") DO NOTHING
    RETURNING "id", "text", "visibleAt" INTO v_inserted;
    CONTINUE WHEN NOT FOUND;
    v_replies := v_replies || jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
      'id', v_inserted."id", 'text', v_inserted."text",
      'visibleAt', round(extract(epoch FROM v_inserted."visibleAt") * 1000)::bigint)));
    IF v_webhook IS NOT NULL THEN
      -- A delayed reply is delivered when it becomes visible, not before.
      INSERT INTO "Delivery" ("tenantId", "channelId", "messageId", "url", "nextAttemptAt")
      VALUES (v_tenant, v_channel, v_inserted."id", v_webhook, COALESCE(v_inserted."visibleAt", v_now))
      ON CONFLICT ("messageId") DO NOTHING;
    END IF;
  END LOOP;

  INSERT INTO "Wake" ("tenantId", "sessionId", "key", "dueAt")
  SELECT v_tenant, v_session, w->>'key', to_timestamp((w->>'at')::double precision / 1000)
    FROM jsonb_array_elements(p->'wakes') AS w
  ON CONFLICT ("sessionId", "key") DO NOTHING;

  IF p->>'firedWake' IS NOT NULL THEN
    UPDATE "Wake" SET "status" = 'fired', "firedAt" = v_now, "updatedAt" = now()
     WHERE "sessionId" = v_session AND "key" = p->>'firedWake' AND "status" = 'scheduled';
  END IF;

  -- The database's own time for the commit; the turn's time before it came in elapsedMs.
  v_commit_ms := round(extract(epoch FROM clock_timestamp() - statement_timestamp()) * 1000);
  v_total_ms := (p->>'elapsedMs')::int + v_commit_ms;
  UPDATE "Turn" SET "commitMs" = v_commit_ms, "totalMs" = v_total_ms WHERE "id" = v_turn;

  -- The latency bucket: the first bound at or above totalMs (libs/db latency-buckets.ts).
  v_buckets := array_fill(0, ARRAY[cardinality(v_bounds) + 1]);
  v_buckets[1 + (SELECT count(*) FROM unnest(v_bounds) AS b WHERE b < v_total_ms)] := 1;
  -- Last: the roll-up row is shared with other sessions' turns (see sb_record_turn_usage).
  PERFORM sb_record_turn_usage(v_tenant, (p->>'agentId')::uuid, (v_now AT TIME ZONE 'UTC')::date, (p->>'usageSlot')::smallint,
    CASE WHEN (p->>'deferred')::boolean THEN 1 ELSE 0 END, CASE WHEN (p->>'failed')::boolean THEN 1 ELSE 0 END,
    (p->>'llmCalls')::bigint, (p->>'inputTokens')::bigint, (p->>'outputTokens')::bigint, (p->>'cachedInputTokens')::bigint,
    (p->>'queueWaitMs')::bigint, (p->>'modelMs')::bigint, (p->>'toolsMs')::bigint, v_commit_ms, v_total_ms,
    v_buckets, ARRAY(SELECT jsonb_array_elements_text(p->'outcomeCodes')));

  RETURN jsonb_build_object('version', v_version, 'commitMs', v_commit_ms, 'totalMs', v_total_ms, 'replies', v_replies);
END
$$;

CREATE OR REPLACE FUNCTION sb_fold_usage_slots(p_before DATE) RETURNS INT LANGUAGE plpgsql VOLATILE AS $$
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

DROP TABLE "UsageCostDaily";
ALTER TABLE "UsageDaily" DROP COLUMN "completedRuns";
ALTER TABLE "UsageDaily" DROP COLUMN "unpricedCalls";
ALTER TABLE "UsageDaily" DROP COLUMN "costMicros";
ALTER TABLE "Session" DROP COLUMN "costMicros";
ALTER TABLE "Turn" DROP COLUMN "unpricedCalls";
ALTER TABLE "Turn" DROP COLUMN "costMicros";
