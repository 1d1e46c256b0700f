-- migrate:up
-- sb_accept_inbound also says whether a repeated channel message id came with the same request
-- (same session key, same text). A retry of one message is answered with the first message; the
-- same id with another session or text is a client reusing an idempotency key, which the API
-- refuses with 409 idempotency-key-reused (as /start and /events do) instead of dropping the new
-- text silently (issue #16 item 7). The return type changes, so the function is re-created.
DROP FUNCTION sb_accept_inbound(UUID, UUID, UUID, TEXT, TEXT, TEXT, "MessageStatus", TEXT, TIMESTAMPTZ);

CREATE FUNCTION sb_accept_inbound(
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

GRANT EXECUTE ON FUNCTION sb_accept_inbound(UUID, UUID, UUID, TEXT, TEXT, TEXT, "MessageStatus", TEXT, TIMESTAMPTZ) TO switchboard_tenant;


-- migrate:down
DROP FUNCTION sb_accept_inbound(UUID, UUID, UUID, TEXT, TEXT, TEXT, "MessageStatus", TEXT, TIMESTAMPTZ);

CREATE FUNCTION sb_accept_inbound(
  p_tenant UUID,
  p_channel UUID,
  p_agent UUID,
  p_session TEXT,
  p_text TEXT,
  p_external_id TEXT,
  p_status "MessageStatus",
  p_kind TEXT,
  p_now TIMESTAMPTZ
) RETURNS TABLE (message_id UUID, session_id UUID, message_status "MessageStatus", created_at TIMESTAMPTZ, duplicate BOOLEAN)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM set_config('app.tenant_id', p_tenant::text, true), set_config('role', 'switchboard_tenant', true);

  IF p_external_id IS NOT NULL THEN
    RETURN QUERY SELECT m."id", m."sessionId", m."status", m."createdAt", true
      FROM "Message" m WHERE m."channelId" = p_channel AND m."externalId" = p_external_id;
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
    RETURNING "Message"."id", "Message"."sessionId", "Message"."status", "Message"."createdAt", false;
  IF FOUND THEN RETURN; END IF;

  RETURN QUERY SELECT m."id", m."sessionId", m."status", m."createdAt", true
    FROM "Message" m WHERE m."channelId" = p_channel AND m."externalId" = p_external_id;
END
$$;

GRANT EXECUTE ON FUNCTION sb_accept_inbound(UUID, UUID, UUID, TEXT, TEXT, TEXT, "MessageStatus", TEXT, TIMESTAMPTZ) TO switchboard_tenant;

