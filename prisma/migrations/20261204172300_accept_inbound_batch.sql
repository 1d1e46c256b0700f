-- migrate:up
-- Group commit at ingest (issue #23): the API collects the messages accepted within a couple of
-- milliseconds and stores them with one call of sb_accept_inbound_batch, one round trip and one
-- commit (one WAL flush) for all of them, instead of one each. Row by row it is
-- sb_accept_inbound: each row scopes itself to its own tenant (row-level security), creates its
-- session on first use, and a repeated channel message id (also one earlier in the same batch)
-- returns the first message. Rows run in (channel, session key, arrival) order, so two batches
-- that share sessions take the sessions' row locks in the same order and cannot deadlock on
-- them. `ordinal` is the row's 1-based position in the arrays. The statement is all or nothing:
-- when it fails the API stores each row on its own, so one bad row fails only its own request.
CREATE FUNCTION sb_accept_inbound_batch(
  p_tenants UUID[],
  p_channels UUID[],
  p_agents UUID[],
  p_sessions TEXT[],
  p_texts TEXT[],
  p_external_ids TEXT[],
  p_nows TIMESTAMPTZ[]
) RETURNS TABLE (ordinal INT, message_id UUID, session_id UUID, message_status "MessageStatus", created_at TIMESTAMPTZ, duplicate BOOLEAN, same_request BOOLEAN)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  i INT;
BEGIN
  FOR i IN SELECT o FROM generate_subscripts(p_tenants, 1) AS o ORDER BY p_channels[o], p_sessions[o], o LOOP
    RETURN QUERY SELECT i, a.* FROM sb_accept_inbound(p_tenants[i], p_channels[i], p_agents[i], p_sessions[i], p_texts[i],
      p_external_ids[i], 'queued', NULL, p_nows[i]) AS a;
  END LOOP;
END
$$;

GRANT EXECUTE ON FUNCTION sb_accept_inbound_batch(UUID[], UUID[], UUID[], TEXT[], TEXT[], TEXT[], TIMESTAMPTZ[]) TO switchboard_tenant;


-- migrate:down
DROP FUNCTION sb_accept_inbound_batch(UUID[], UUID[], UUID[], TEXT[], TEXT[], TEXT[], TIMESTAMPTZ[]);
