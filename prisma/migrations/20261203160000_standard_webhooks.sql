-- migrate:up
-- Standard Webhooks (docs/webhooks.md). A rotated channel secret stays valid for a grace period
-- the tenant sets: deliveries are signed with the previous secret too until it expires.
ALTER TABLE "Channel" ADD COLUMN "webhookSecretPreviousEncrypted" TEXT;
ALTER TABLE "Channel" ADD COLUMN "webhookSecretPreviousExpiresAt" TIMESTAMPTZ(3);

-- Events that are not replies (a hand-off, a hand-back) are delivered like replies, from rows
-- that carry the whole event in "payload" and their session instead of a message.
ALTER TABLE "Delivery" ALTER COLUMN "messageId" DROP NOT NULL;
ALTER TABLE "Delivery" ADD COLUMN "sessionId" UUID;
ALTER TABLE "Delivery" ADD COLUMN "payload" JSONB;
ALTER TABLE "Delivery" ADD CONSTRAINT "Delivery_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "Delivery_sessionId_idx" ON "Delivery"("sessionId");
-- A delivery is of a reply or of a stored event (with its session), never of nothing.
ALTER TABLE "Delivery" ADD CONSTRAINT "Delivery_reply_or_event_check"
  CHECK ("messageId" IS NOT NULL OR ("payload" IS NOT NULL AND "sessionId" IS NOT NULL));

-- migrate:down
ALTER TABLE "Delivery" DROP CONSTRAINT "Delivery_reply_or_event_check";
DROP INDEX "Delivery_sessionId_idx";
ALTER TABLE "Delivery" DROP CONSTRAINT "Delivery_sessionId_fkey";
DELETE FROM "Delivery" WHERE "messageId" IS NULL;
ALTER TABLE "Delivery" DROP COLUMN "payload";
ALTER TABLE "Delivery" DROP COLUMN "sessionId";
ALTER TABLE "Delivery" ALTER COLUMN "messageId" SET NOT NULL;
ALTER TABLE "Channel" DROP COLUMN "webhookSecretPreviousExpiresAt";
ALTER TABLE "Channel" DROP COLUMN "webhookSecretPreviousEncrypted";
