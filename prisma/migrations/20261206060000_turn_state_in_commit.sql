-- migrate:up
-- The next turn's claim folded into the commit (issue #23; docs/hot-path.md, "Eighth round"). A
-- sequential drain answers a session's queued messages one turn each: its commit returned the next
-- queued message, and the next turn then read the session, its agent's stamp and the history in a
-- round trip of its own. The turn's state is now read by one function, sb_turn_state, which the
-- worker calls for a drain's first turn and sb_commit_turn calls after its writes when asked
-- (`historyLimit` in its payload), returning it as `nextState`. The commit now reads the next
-- message and that state before its usage roll-ups, not after: the roll-ups' rows are shared by
-- the agent's concurrent turns and stay locked until COMMIT, so they stay last.

-- The state a turn starts from, as JSON (null: no such session of the tenant): the session row,
-- its tenant's suspension and monthly limits, its agent's version stamp, its wait for a model that
-- is down, the own message's status (p_own; null without one), the session's oldest queued
-- inbound message, and the last p_history_limit messages of committed turns. A plpgsql function so
-- that each connection keeps the query's plan, as it kept the prepared statement's; the shape of
-- each part, and why, is in apps/worker/src/turns/load-turn-state.ts. Times are epoch
-- milliseconds, cut to the millisecond as node-postgres cuts a timestamp.
CREATE FUNCTION sb_turn_state(p_tenant UUID, p_session UUID, p_own UUID, p_history_limit INT) RETURNS JSONB
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT jsonb_build_object(
             'id', s."id", 'tenantId', s."tenantId", 'status', s."status", 'channelId', s."channelId", 'agentId', s."agentId",
             'state', s."state", 'version', s."version",
             'tenantSuspended', COALESCE(tn."status" = 'suspended', false),
             'tenantLimited', COALESCE(tn."monthlyLlmCallQuota" IS NOT NULL OR tn."monthlyTokenQuota" IS NOT NULL OR tn."monthlyBudgetMicros" IS NOT NULL, false),
             'agentFound', a."id" IS NOT NULL,
             'agentPublishedVersion', a."publishedVersion",
             'agentUpdatedAt', floor(extract(epoch FROM a."updatedAt") * 1000)::bigint,
             'agentArchivedAt', floor(extract(epoch FROM a."archivedAt") * 1000)::bigint,
             'agentBudgeted', COALESCE(a."monthlyBudgetMicros" IS NOT NULL, false),
             -- Found by its id alone and checked against the session here: beside the id, the
             -- tenant let a plan made on small tables read the message from the tenant's index.
             'ownStatus', (SELECT CASE WHEN o."sessionId" = s."id" AND o."tenantId" = s."tenantId" THEN o."status"::text END
                             FROM "Message" o WHERE o."id" = p_own),
             -- Written at a deferral with the session's version then: a commit since has ended it.
             'providerBackoff', CASE WHEN (s."providerBackoff"->>'version')::int = s."version" THEN s."providerBackoff" END,
             -- From the partial index on queued inbound messages; the session is the tenant's.
             'next', (SELECT CASE WHEN q."tenantId" = s."tenantId" THEN jsonb_build_object(
                                   'id', q."id", 'text', q."text", 'createdAt', floor(extract(epoch FROM q."createdAt") * 1000)::bigint) END
                        FROM "Message" q
                       WHERE q."sessionId" = s."id" AND q."direction" = 'inbound' AND q."status" = 'queued'
                       ORDER BY q."seq"
                       LIMIT 1),
             -- With the own message settled and nothing else queued the job ends without a turn:
             -- no history (a CASE runs its subqueries only when taken).
             'history', CASE WHEN p_own IS NULL
                               OR (SELECT CASE WHEN o."sessionId" = s."id" AND o."tenantId" = s."tenantId" THEN o."status"::text END
                                     FROM "Message" o WHERE o."id" = p_own) = 'queued'
                               OR EXISTS (SELECT 1 FROM "Message" w
                                           WHERE w."sessionId" = s."id" AND w."direction" = 'inbound' AND w."status" = 'queued')
             THEN COALESCE((
               SELECT jsonb_agg(jsonb_build_object(
                        'role', CASE WHEN h."direction" = 'inbound' THEN 'user' ELSE 'assistant' END,
                        'content', h."text") ORDER BY h."turnAt", h."direction", h."seq")
                 FROM (SELECT m."direction", m."text", m."seq", t."createdAt" AS "turnAt"
                         FROM (SELECT "id", "createdAt" FROM "Turn"
                                WHERE "sessionId" = p_session
                                ORDER BY "createdAt" DESC
                                LIMIT p_history_limit) AS t
                         CROSS JOIN LATERAL (SELECT "direction", "text", "seq" FROM "Message"
                                              WHERE "turnId" = t."id"
                                              ORDER BY "direction" DESC, "seq" DESC
                                              LIMIT p_history_limit) AS m
                        ORDER BY t."createdAt" DESC, m."direction" DESC, m."seq" DESC
                        LIMIT p_history_limit) AS h), '[]'::jsonb) ELSE '[]'::jsonb END)
      FROM "Session" s
      LEFT JOIN "Tenant" tn ON tn."id" = s."tenantId"
      LEFT JOIN "Agent" a ON a."id" = s."agentId" AND a."tenantId" = s."tenantId"
     WHERE s."id" = p_session AND s."tenantId" = p_tenant);
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
  v_next_state JSONB;
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

  -- The session's next queued inbound message (seq order), so the draining worker goes on to it
  -- without a read of its own, and ends after the last one without looking again. Read (with the
  -- next turn's state) before the roll-ups, whose shared rows stay locked until COMMIT.
  SELECT jsonb_build_object('id', m."id", 'text', m."text", 'createdAt', round(extract(epoch FROM m."createdAt") * 1000)::bigint)
    INTO v_next
    FROM "Message" m
   WHERE m."sessionId" = v_session AND m."tenantId" = v_tenant AND m."direction" = 'inbound' AND m."status" = 'queued'
   ORDER BY m."seq"
   LIMIT 1;

  -- The state the next turn starts from, when the worker goes on to it (a sequential drain): read
  -- here, after this turn's writes, it is what a claim after the commit would read, without the
  -- round trip of its own. After commitMs: the next turn's read is not this commit's time.
  IF v_next IS NOT NULL AND (p->>'historyLimit') IS NOT NULL THEN
    v_next_state := sb_turn_state(v_tenant, v_session, NULL, (p->>'historyLimit')::int);
  END IF;

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

  RETURN jsonb_build_object('version', v_version, 'commitMs', v_commit_ms, 'totalMs', v_total_ms, 'replies', v_replies, 'next', v_next,
    'nextState', v_next_state);
END
$$;

-- migrate:down
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

DROP FUNCTION sb_turn_state(UUID, UUID, UUID, INT);
