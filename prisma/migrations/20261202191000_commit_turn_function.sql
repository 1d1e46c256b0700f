-- migrate:up
-- A turn's commit in one round trip. The worker used to run it as an interactive transaction of
-- nine to twelve statements (BEGIN, Turn insert, inbound update, session update, reply insert,
-- deliveries, wakes, Turn update, two roll-up upserts, COMMIT), each a round trip and most of the
-- worker's CPU per message (bench/report/findings.md). sb_commit_turn runs the same statements,
-- in the same order, inside the database, as one statement: its implicit transaction commits
-- all of it or, when a check fails, none of it.
--
-- The two checks raise their own SQLSTATEs, which the worker turns back into its errors:
--   SB409 message-already-answered: an inbound message of the turn is no longer queued;
--   SB412 session-version-conflict: the session moved past the version the turn started from.

-- Adds figures to one UsageDaily row (a tenant, agent, day and slot) with an atomic upsert, so
-- concurrent writers never lose an increment: `p_turns` turns and their sums, and the latency
-- bucket counts element-wise (a stored vector shorter than the new one, from before a bound was
-- added, is padded). Returns 1. Used for one turn (sb_record_turn_usage) and for folded slots
-- (sb_fold_usage_slots).
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

-- Adds one turn to the daily roll-ups (UsageDaily, UsageOutcomeDaily). Shared by sb_commit_turn
-- and recordTurnUsage (libs/db/src/usage/record-turn-usage.ts). In a transaction, call it last:
-- the roll-up row is shared by the agent's turns that day in the same slot, and its row lock
-- lasts until COMMIT.
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

-- The turn's commit. `p` is the JSON the worker builds (apps/worker/src/turns/commit-turn.ts):
-- ids, provider and usage, `answered` (inbound ids), `inboundStatus`, `expectedVersion`, `state`
-- (the session blob to save, version included, or null to keep it), `replies` ({key, text,
-- kind, visibleAt?} in order), `now` (the worker's clock, epoch ms), `wakes` ({key, at}), `firedWake`, `elapsedMs` (the
-- turn's time before this call), `usageSlot`, `latencyBounds`, `deferred`, `failed`.
-- Returns {version, commitMs, totalMs, replies: [{id, text, visibleAt?}]} (the replies inserted).
CREATE FUNCTION sb_commit_turn(p JSONB) RETURNS JSONB LANGUAGE plpgsql VOLATILE AS $$
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

-- migrate:down
DROP FUNCTION sb_commit_turn(JSONB);
DROP FUNCTION sb_record_turn_usage(UUID, UUID, DATE, SMALLINT, INT, INT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, INT[], TEXT[]);
DROP FUNCTION sb_add_usage_daily(UUID, UUID, DATE, SMALLINT, INT, INT, INT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, INT[]);
