-- migrate:up
-- Fewer executor starts per message (issue #23; docs/hot-path.md, "Seventh round"). Inside a
-- plpgsql function every statement that is not a simple expression runs as a query with an
-- executor of its own, and starting those executors was a fifth of Postgres's CPU in the
-- end-to-end bench (perf). sb_commit_turn read its JSON arrays with ARRAY(SELECT ...) subqueries,
-- read the outcome codes twice, found the latency bucket with a subquery, set lock_timeout with
-- PERFORM, and ran its wake and cost inserts over empty arrays; sb_record_turn_usage called
-- sb_add_usage_daily with PERFORM; sb_accept_inbound set the row's tenant and role with PERFORM
-- for every message. Same results: simple expressions instead, the codes read once, the empty
-- inserts skipped.

CREATE OR REPLACE FUNCTION sb_record_turn_usage(
  p_tenant UUID, p_agent UUID, p_day DATE, p_slot SMALLINT,
  p_deferred INT, p_failed INT,
  p_llm_calls BIGINT, p_input_tokens BIGINT, p_output_tokens BIGINT, p_cached_input_tokens BIGINT,
  p_queue_wait_ms BIGINT, p_model_ms BIGINT, p_tools_ms BIGINT, p_commit_ms BIGINT, p_total_ms BIGINT,
  p_latency_buckets INT[], p_outcome_codes TEXT[],
  p_cost_micros BIGINT DEFAULT 0, p_unpriced_calls BIGINT DEFAULT 0, p_completed_runs BIGINT DEFAULT 0
) RETURNS VOID LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_rows INT;
BEGIN
  -- An assignment, not PERFORM: PERFORM runs its expression as a query (an executor start).
  v_rows := sb_add_usage_daily(p_tenant, p_agent, p_day, p_slot, 1, p_deferred, p_failed,
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
  -- A JSON array of uuids or integers is its array literal with braces for brackets: a simple
  -- expression, where ARRAY(SELECT ...) started an executor for every commit.
  v_answered UUID[] := translate(COALESCE(p->>'answered', '[]'), '[]', '{}')::uuid[];
  v_expected INT := (p->>'expectedVersion')::int;
  v_version INT := (p->>'expectedVersion')::int + 1;
  v_bounds INT[] := translate(COALESCE(p->>'latencyBounds', '[]'), '[]', '{}')::int[];
  v_codes TEXT[] := ARRAY(SELECT jsonb_array_elements_text(p->'outcomeCodes'));
  v_set TEXT;
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
  v_next JSONB;
BEGIN
  -- A commit stuck behind a row lock fails (and its job retries) rather than hold a worker slot.
  -- An assignment, not PERFORM: PERFORM runs its expression as a query (an executor start).
  v_set := set_config('lock_timeout', '5s', true);

  INSERT INTO "Turn" ("id", "tenantId", "sessionId", "agentId", "agentVersion", "provider", "model", "llmCalls",
    "inputTokens", "outputTokens", "cachedInputTokens", "outcomeCodes", "outcomes", "trace", "queueWaitMs", "modelMs", "toolsMs",
    "costMicros", "unpricedCalls")
  VALUES (v_turn, v_tenant, v_session, (p->>'agentId')::uuid, (p->>'agentVersion')::int, p->>'provider', p->>'model',
    (p->>'llmCalls')::int, (p->>'inputTokens')::int, (p->>'outputTokens')::int, (p->>'cachedInputTokens')::int,
    v_codes, p->'outcomes', p->'trace',
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

  IF jsonb_array_length(COALESCE(p->'wakes', '[]'::jsonb)) > 0 THEN
    INSERT INTO "Wake" ("tenantId", "sessionId", "key", "dueAt")
    SELECT v_tenant, v_session, w->>'key', to_timestamp((w->>'at')::double precision / 1000)
      FROM jsonb_array_elements(p->'wakes') AS w
    ON CONFLICT ("sessionId", "key") DO NOTHING;
  END IF;

  IF p->>'firedWake' IS NOT NULL THEN
    UPDATE "Wake" SET "status" = 'fired', "firedAt" = v_now, "updatedAt" = now()
     WHERE "sessionId" = v_session AND "key" = p->>'firedWake' AND "status" = 'scheduled';
  END IF;

  -- The database's own time for the commit; the turn's time before it came in elapsedMs.
  v_commit_ms := round(extract(epoch FROM clock_timestamp() - statement_timestamp()) * 1000);
  v_total_ms := (p->>'elapsedMs')::int + v_commit_ms;
  UPDATE "Turn" SET "commitMs" = v_commit_ms, "totalMs" = v_total_ms WHERE "id" = v_turn;

  -- The latency bucket: the first bound at or above totalMs (libs/db latency-buckets.ts). The
  -- bounds are ascending integers, so the bounds below totalMs are those at or below totalMs - 1.
  v_buckets := array_fill(0, ARRAY[cardinality(v_bounds) + 1]);
  v_buckets[1 + width_bucket(v_total_ms - 1, v_bounds)] := 1;
  -- Last: the roll-up row is shared with other sessions' turns (see sb_record_turn_usage).
  PERFORM sb_record_turn_usage(v_tenant, (p->>'agentId')::uuid, (v_now AT TIME ZONE 'UTC')::date, (p->>'usageSlot')::smallint,
    CASE WHEN (p->>'deferred')::boolean THEN 1 ELSE 0 END, CASE WHEN (p->>'failed')::boolean THEN 1 ELSE 0 END,
    (p->>'llmCalls')::bigint, (p->>'inputTokens')::bigint, (p->>'outputTokens')::bigint, (p->>'cachedInputTokens')::bigint,
    (p->>'queueWaitMs')::bigint, (p->>'modelMs')::bigint, (p->>'toolsMs')::bigint, v_commit_ms, v_total_ms,
    v_buckets, v_codes,
    v_cost, (p->>'unpricedCalls')::bigint, COALESCE((p->>'completedRuns')::bigint, 0));

  -- The cost lines ({provider, model, part, flowId, stepId, llmCalls, tokens, costMicros,
  -- unpricedCalls}), sorted by the worker so concurrent commits lock shared rows in one order.
  IF jsonb_array_length(COALESCE(p->'costs', '[]'::jsonb)) > 0 THEN
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
  END IF;

  -- The session's next queued inbound message (seq order), so the draining worker goes on to it
  -- without a read of its own, and ends after the last one without looking again.
  SELECT jsonb_build_object('id', m."id", 'text', m."text", 'createdAt', round(extract(epoch FROM m."createdAt") * 1000)::bigint)
    INTO v_next
    FROM "Message" m
   WHERE m."sessionId" = v_session AND m."tenantId" = v_tenant AND m."direction" = 'inbound' AND m."status" = 'queued'
   ORDER BY m."seq"
   LIMIT 1;

  RETURN jsonb_build_object('version', v_version, 'commitMs', v_commit_ms, 'totalMs', v_total_ms, 'replies', v_replies, 'next', v_next);
END
$$;

CREATE OR REPLACE FUNCTION sb_accept_inbound(
  p_tenant UUID,
  p_channel UUID,
  p_agent UUID,
  p_session TEXT,
  p_text TEXT,
  p_external_id TEXT,
  p_status "MessageStatus",
  p_kind TEXT,
  p_now TIMESTAMPTZ
) RETURNS TABLE (message_id UUID, session_id UUID, message_status "MessageStatus", created_at TIMESTAMPTZ, duplicate BOOLEAN, same_request BOOLEAN)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_set TEXT;
BEGIN
  -- Assignments, not PERFORM: PERFORM runs its expression as a query (an executor start per message).
  v_set := set_config('app.tenant_id', p_tenant::text, true);
  v_set := set_config('role', 'switchboard_tenant', true);

  IF p_external_id IS NOT NULL THEN
    RETURN QUERY SELECT m."id", m."sessionId", m."status", m."createdAt", true,
        s."externalKey" = p_session AND m."text" IS NOT DISTINCT FROM p_text
      FROM "Message" m JOIN "Session" s ON s."id" = m."sessionId"
      WHERE m."channelId" = p_channel AND m."externalId" = p_external_id;
    IF FOUND THEN RETURN; END IF;
  END IF;

  RETURN QUERY
    WITH session AS (
      INSERT INTO "Session" ("tenantId", "channelId", "agentId", "externalKey", "lastMessageAt", "updatedAt")
      VALUES (p_tenant, p_channel, p_agent, p_session, p_now, p_now)
      ON CONFLICT ("channelId", "externalKey")
      DO UPDATE SET "lastMessageAt" = EXCLUDED."lastMessageAt", "updatedAt" = EXCLUDED."updatedAt"
      RETURNING "id")
    INSERT INTO "Message" ("tenantId", "channelId", "sessionId", "direction", "status", "kind", "text", "externalId", "createdAt")
    SELECT p_tenant, p_channel, session."id", 'inbound', p_status, p_kind, p_text, p_external_id, p_now
      FROM session
    ON CONFLICT ("channelId", "externalId") DO NOTHING
    RETURNING "Message"."id", "Message"."sessionId", "Message"."status", "Message"."createdAt", false, true;
  IF FOUND THEN RETURN; END IF;

  RETURN QUERY SELECT m."id", m."sessionId", m."status", m."createdAt", true,
      s."externalKey" = p_session AND m."text" IS NOT DISTINCT FROM p_text
    FROM "Message" m JOIN "Session" s ON s."id" = m."sessionId"
    WHERE m."channelId" = p_channel AND m."externalId" = p_external_id;
END
$$;

-- migrate:down
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
  v_next JSONB;
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

  -- The session's next queued inbound message (seq order), so the draining worker goes on to it
  -- without a read of its own, and ends after the last one without looking again.
  SELECT jsonb_build_object('id', m."id", 'text', m."text", 'createdAt', round(extract(epoch FROM m."createdAt") * 1000)::bigint)
    INTO v_next
    FROM "Message" m
   WHERE m."sessionId" = v_session AND m."tenantId" = v_tenant AND m."direction" = 'inbound' AND m."status" = 'queued'
   ORDER BY m."seq"
   LIMIT 1;

  RETURN jsonb_build_object('version', v_version, 'commitMs', v_commit_ms, 'totalMs', v_total_ms, 'replies', v_replies, 'next', v_next);
END
$$;

CREATE OR REPLACE FUNCTION sb_accept_inbound(
  p_tenant UUID,
  p_channel UUID,
  p_agent UUID,
  p_session TEXT,
  p_text TEXT,
  p_external_id TEXT,
  p_status "MessageStatus",
  p_kind TEXT,
  p_now TIMESTAMPTZ
) RETURNS TABLE (message_id UUID, session_id UUID, message_status "MessageStatus", created_at TIMESTAMPTZ, duplicate BOOLEAN, same_request BOOLEAN)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM set_config('app.tenant_id', p_tenant::text, true), set_config('role', 'switchboard_tenant', true);

  IF p_external_id IS NOT NULL THEN
    RETURN QUERY SELECT m."id", m."sessionId", m."status", m."createdAt", true,
        s."externalKey" = p_session AND m."text" IS NOT DISTINCT FROM p_text
      FROM "Message" m JOIN "Session" s ON s."id" = m."sessionId"
      WHERE m."channelId" = p_channel AND m."externalId" = p_external_id;
    IF FOUND THEN RETURN; END IF;
  END IF;

  RETURN QUERY
    WITH session AS (
      INSERT INTO "Session" ("tenantId", "channelId", "agentId", "externalKey", "lastMessageAt", "updatedAt")
      VALUES (p_tenant, p_channel, p_agent, p_session, p_now, p_now)
      ON CONFLICT ("channelId", "externalKey")
      DO UPDATE SET "lastMessageAt" = EXCLUDED."lastMessageAt", "updatedAt" = EXCLUDED."updatedAt"
      RETURNING "id")
    INSERT INTO "Message" ("tenantId", "channelId", "sessionId", "direction", "status", "kind", "text", "externalId", "createdAt")
    SELECT p_tenant, p_channel, session."id", 'inbound', p_status, p_kind, p_text, p_external_id, p_now
      FROM session
    ON CONFLICT ("channelId", "externalId") DO NOTHING
    RETURNING "Message"."id", "Message"."sessionId", "Message"."status", "Message"."createdAt", false, true;
  IF FOUND THEN RETURN; END IF;

  RETURN QUERY SELECT m."id", m."sessionId", m."status", m."createdAt", true,
      s."externalKey" = p_session AND m."text" IS NOT DISTINCT FROM p_text
    FROM "Message" m JOIN "Session" s ON s."id" = m."sessionId"
    WHERE m."channelId" = p_channel AND m."externalId" = p_external_id;
END
$$;

CREATE OR REPLACE FUNCTION sb_record_turn_usage(
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
