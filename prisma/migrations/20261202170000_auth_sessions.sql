-- migrate:up
-- Console login sessions: one row per refresh token (stored as its sha256, never in clear).
-- Rotation revokes the row it replaces and adds one to the same family; presenting a revoked
-- token again revokes the whole family. Access tokens name their row (`sid`), so a logout (or a
-- detected reuse) also ends the access tokens issued with it. Sessions belong to a user, not to
-- a tenant (platform admins have none), so there is no tenantId and no row-level policy; code
-- running as the tenant role has no business reading them at all.

CREATE TABLE "AuthSession" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "userId" UUID NOT NULL,
    "familyId" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "revokedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),

    CONSTRAINT "AuthSession_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "AuthSession_tokenHash_key" ON "AuthSession"("tokenHash");
CREATE INDEX "AuthSession_userId_idx" ON "AuthSession"("userId");
CREATE INDEX "AuthSession_familyId_idx" ON "AuthSession"("familyId");

-- Deleting a user deletes their sessions, so a deleted user can neither refresh nor use a token.
ALTER TABLE "AuthSession" ADD CONSTRAINT "AuthSession_userId_fkey"
    FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

REVOKE ALL ON "AuthSession" FROM switchboard_tenant;

-- Emails are one account whatever their letter case: stored lower-case (the API lower-cases on
-- write and at login) and unique by lower(email), so a writer that forgets cannot add a twin.
UPDATE "User" SET "email" = lower("email") WHERE "email" <> lower("email");
CREATE UNIQUE INDEX "User_email_lower_key" ON "User"(lower("email"));

-- migrate:down
DROP INDEX "User_email_lower_key";
DROP TABLE "AuthSession";
