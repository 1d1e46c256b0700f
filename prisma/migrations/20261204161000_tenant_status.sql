-- migrate:up
-- A platform admin can suspend a tenant: its channels' messages are refused (403
-- tenant-suspended, nothing stored), its console users cannot sign in or call the API, and the
-- worker does not run its queued turns. Reactivating restores all of it (docs/security.md,
-- "Suspended tenants").
CREATE TYPE "TenantStatus" AS ENUM ('active', 'suspended');
ALTER TABLE "Tenant" ADD COLUMN "status" "TenantStatus" NOT NULL DEFAULT 'active';

-- migrate:down
ALTER TABLE "Tenant" DROP COLUMN "status";
DROP TYPE "TenantStatus";
