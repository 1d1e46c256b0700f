-- migrate:up
-- Engine part two on the platform.
-- "visibleAt": an outbound message the engine sent with `afterMs` (a short wait before it) is
-- shown, streamed and delivered only from this instant; null = at once.
ALTER TABLE "Message" ADD COLUMN "visibleAt" TIMESTAMPTZ(3);

-- The worker's registered actions (`do` steps) and conditions (predicates), synced at start-up
-- like RegisteredTool, so publishing can refuse a flow that names one no worker provides.
CREATE TABLE "RegisteredAction" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "params" JSONB,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RegisteredAction_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "RegisteredAction_kind_check" CHECK ("kind" IN ('action', 'condition'))
);
CREATE UNIQUE INDEX "RegisteredAction_kind_name_key" ON "RegisteredAction"("kind", "name");
-- Shared by every tenant, written only by the worker (as RegisteredTool).
REVOKE INSERT, UPDATE, DELETE ON "RegisteredAction" FROM switchboard_tenant;

-- migrate:down
DROP TABLE "RegisteredAction";
ALTER TABLE "Message" DROP COLUMN "visibleAt";
