-- migrate:up
-- The web widget (docs/widget.md). A widget channel is addressed from web pages by a public id
-- (not a secret: it is in the snippet every visitor's browser loads), unique across tenants
-- because the widget's routes find the channel by it before any tenant is known. Null for the
-- other kinds. A visitor's identify({ name, email, ... }) is kept on the session as given by
-- the visitor: shown to people, never used for permissions.
ALTER TABLE "Channel" ADD COLUMN "publicId" TEXT;
CREATE UNIQUE INDEX "Channel_publicId_key" ON "Channel"("publicId");

ALTER TABLE "Session" ADD COLUMN "visitorContext" JSONB;

-- migrate:down
ALTER TABLE "Session" DROP COLUMN "visitorContext";
DROP INDEX "Channel_publicId_key";
ALTER TABLE "Channel" DROP COLUMN "publicId";
