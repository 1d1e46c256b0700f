-- migrate:up
-- Ingest in one round trip. Accepting a message used to be BEGIN, set_config (tenant and role),
-- the session-upsert-and-insert statement, COMMIT: four round trips through Prisma's interactive
-- transaction, most of the API's CPU per message (bench/report/findings.md). This function does
-- the same work in one call, run as a single statement (its own implicit transaction):
--   1. scope the transaction to the tenant (the same two settings withTenant() sets, SET LOCAL),
--      so every statement below runs under the row-level security policies;
--   2. a channel message id seen before returns the first message, writing nothing;
--   3. otherwise create the session on first use and insert the message;
--   4. a copy of the same id that raced us and won (ON CONFLICT DO NOTHING waited for it) is
--      returned as the duplicate it is.
-- SECURITY INVOKER (the default): it runs with the caller's rights, then as switchboard_tenant.
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

-- migrate:down
DROP FUNCTION sb_accept_inbound(UUID, UUID, UUID, TEXT, TEXT, TEXT, "MessageStatus", TEXT, TIMESTAMPTZ);
