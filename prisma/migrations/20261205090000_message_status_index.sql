-- migrate:up
-- Message's ("status", "createdAt") index goes. Every message wrote it three times (the inbound's
-- insert, its status change, the reply's insert), and it competed with the partial
-- "Message_queued_inbound_idx" for the session's next queued message: planned with few queued
-- rows in the statistics, the claim-and-load read the next message through it, walking every
-- queued entry of every tenant (and the dead ones not yet vacuumed) to filter one session's, so
-- a turn cost more the longer the platform-wide backlog (docs/hot-path.md, "Fifth round"). Its
-- other readers ask for queued inbound messages (the sweeper, the backlog counts), which the
-- partial index holds.

DROP INDEX "Message_status_createdAt_idx";

-- migrate:down
CREATE INDEX "Message_status_createdAt_idx" ON "Message"("status", "createdAt");
