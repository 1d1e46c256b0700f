-- migrate:up
-- An agent can be archived instead of deleted (it keeps its sessions, turns and versions): the
-- console hides it from lists by default, channels cannot point at it, and the worker does not
-- run it (docs/admin-api.md, "Archiving an agent").
ALTER TABLE "Agent" ADD COLUMN "archivedAt" TIMESTAMPTZ(3);

-- migrate:down
ALTER TABLE "Agent" DROP COLUMN "archivedAt";
