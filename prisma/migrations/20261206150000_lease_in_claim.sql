-- migrate:up
-- Postgres mode: the session's lease taken in the drain's first read (issue #23; docs/hot-path.md,
-- "Eleventh round"). In Postgres mode a session lease is a row of sb_runtime.leases, in the same
-- database as the session, so the statement that reads the drain's first turn state can take it
-- too: a job then starts its drain in one round trip where it took two, one of the four its
-- message waited on before its turn.
--
-- Takes the lease p_key under p_token for p_ttl_ms unless a live holder has it, exactly as
-- PostgresLeaseStore.take does (an expired row counts as free; the database's clock). When taken,
-- also returns sb_turn_state(p_tenant, p_session, p_own, p_history_limit), read after the take:
-- this function is VOLATILE, so that read runs on a snapshot of its own, taken once the lease is
-- ours, and sees every commit of the holder that let it go. Never called in Redis mode, where the
-- table does not exist (ensureRuntimeSchema creates it in Postgres mode; a plpgsql body is only
-- resolved when it runs).
CREATE FUNCTION sb_lease_and_turn_state(p_key TEXT, p_token TEXT, p_ttl_ms INT, p_tenant UUID, p_session UUID, p_own UUID, p_history_limit INT,
                                        OUT leased BOOLEAN, OUT state JSONB)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  INSERT INTO sb_runtime.leases AS l (key, token, expires_at)
  VALUES (p_key, p_token, clock_timestamp() + p_ttl_ms * interval '1 millisecond')
  ON CONFLICT (key) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
    WHERE l.expires_at <= clock_timestamp();
  leased := FOUND;
  IF leased THEN
    state := sb_turn_state(p_tenant, p_session, p_own, p_history_limit);
  END IF;
END
$$;

-- migrate:down
DROP FUNCTION sb_lease_and_turn_state(TEXT, TEXT, INT, UUID, UUID, UUID, INT);
