-- migrate:up
-- The inbox (docs/inbox.md): who took a session over and when it went to a person, the read
-- mark behind unread counts, and operators' internal notes (never sent to the customer).
ALTER TABLE "Session" ADD COLUMN "handedOffAt" TIMESTAMPTZ(3);
ALTER TABLE "Session" ADD COLUMN "takenOverById" UUID;
ALTER TABLE "Session" ADD COLUMN "humanReadSeq" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Session" ADD CONSTRAINT "Session_takenOverById_fkey" FOREIGN KEY ("takenOverById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
-- Sessions already with a person count as handed off since their last change.
UPDATE "Session" SET "handedOffAt" = "updatedAt" WHERE "status" = 'handed_off';

CREATE TABLE "SessionNote" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "tenantId" UUID NOT NULL,
  "sessionId" UUID NOT NULL,
  "authorId" UUID,
  "text" TEXT NOT NULL,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "SessionNote_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "SessionNote_sessionId_createdAt_idx" ON "SessionNote"("sessionId", "createdAt");
ALTER TABLE "SessionNote" ADD CONSTRAINT "SessionNote_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "SessionNote" ADD CONSTRAINT "SessionNote_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "SessionNote" ADD CONSTRAINT "SessionNote_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "SessionNote" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "SessionNote" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

-- migrate:down
DROP TABLE "SessionNote";
ALTER TABLE "Session" DROP CONSTRAINT "Session_takenOverById_fkey";
ALTER TABLE "Session" DROP COLUMN "humanReadSeq";
ALTER TABLE "Session" DROP COLUMN "takenOverById";
ALTER TABLE "Session" DROP COLUMN "handedOffAt";
