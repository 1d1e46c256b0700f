-- migrate:up
-- A turn's history is read turn by turn (the last turns of a session, then their messages), so
-- its cost stays flat however long the conversation grows (docs/benchmarks.md).
CREATE INDEX "Message_turnId_idx" ON "Message"("turnId");

-- migrate:down
DROP INDEX "Message_turnId_idx";
