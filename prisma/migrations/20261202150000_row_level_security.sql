-- migrate:up
-- Tenant isolation below the query layer. Code that serves one tenant runs its queries through
-- withTenant() (libs/db/src/tenant-scope.ts): one transaction that sets app.tenant_id and
-- switches to the role switchboard_tenant, on which these policies apply. A forgotten `where`
-- then returns nothing of another tenant, and writing another tenant's row fails. The owner
-- role (migrations, worker, sweeper, seed) is not subject to the policies.

DO $$
BEGIN
  -- Roles are cluster-wide: another database of the cluster may have created it already.
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchboard_tenant') THEN
    BEGIN
      CREATE ROLE switchboard_tenant NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL; -- a parallel migration of another database created it first
    END;
  END IF;
  -- A non-superuser owner must be a member to SET ROLE to it (superusers always may).
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT switchboard_tenant TO %I', current_user);
  END IF;
END $$;

-- The tenant of the current transaction; NULL when none is set, which matches no row.
CREATE FUNCTION sb_current_tenant() RETURNS UUID LANGUAGE sql STABLE AS $$
  SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid
$$;

GRANT USAGE ON SCHEMA public TO switchboard_tenant;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO switchboard_tenant;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO switchboard_tenant;
REVOKE ALL ON "schema_migrations" FROM switchboard_tenant;
-- Code tools are shared by every tenant and written only by the worker's start-up sync.
REVOKE INSERT, UPDATE, DELETE ON "RegisteredTool" FROM switchboard_tenant;
-- Tables of later migrations get the same grants (RLS must still be enabled on each: the
-- test/db/row-level-security.spec.ts check fails for a tenant table without a policy).
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO switchboard_tenant;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO switchboard_tenant;

ALTER TABLE "Tenant" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "Tenant" USING ("id" = sb_current_tenant()) WITH CHECK ("id" = sb_current_tenant());

ALTER TABLE "User" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "User" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "Agent" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "Agent" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "AgentVersion" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "AgentVersion" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "Channel" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "Channel" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "ApiKey" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "ApiKey" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "Session" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "Session" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "Message" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "Message" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "Turn" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "Turn" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "UsageDaily" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "UsageDaily" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "UsageOutcomeDaily" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "UsageOutcomeDaily" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "Wake" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "Wake" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "Delivery" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "Delivery" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "AuditLog" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "AuditLog" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "ToolDefinition" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "ToolDefinition" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

ALTER TABLE "ProviderCredential" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "ProviderCredential" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

-- migrate:down
DROP POLICY "tenant_isolation" ON "Tenant";
ALTER TABLE "Tenant" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "User";
ALTER TABLE "User" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "Agent";
ALTER TABLE "Agent" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "AgentVersion";
ALTER TABLE "AgentVersion" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "Channel";
ALTER TABLE "Channel" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "ApiKey";
ALTER TABLE "ApiKey" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "Session";
ALTER TABLE "Session" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "Message";
ALTER TABLE "Message" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "Turn";
ALTER TABLE "Turn" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "UsageDaily";
ALTER TABLE "UsageDaily" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "UsageOutcomeDaily";
ALTER TABLE "UsageOutcomeDaily" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "Wake";
ALTER TABLE "Wake" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "Delivery";
ALTER TABLE "Delivery" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "AuditLog";
ALTER TABLE "AuditLog" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "ToolDefinition";
ALTER TABLE "ToolDefinition" DISABLE ROW LEVEL SECURITY;
DROP POLICY "tenant_isolation" ON "ProviderCredential";
ALTER TABLE "ProviderCredential" DISABLE ROW LEVEL SECURITY;
ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE USAGE, SELECT ON SEQUENCES FROM switchboard_tenant;
ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE SELECT, INSERT, UPDATE, DELETE ON TABLES FROM switchboard_tenant;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM switchboard_tenant;
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM switchboard_tenant;
REVOKE USAGE ON SCHEMA public FROM switchboard_tenant;
DROP FUNCTION sb_current_tenant();
-- The role stays: it is cluster-wide and other databases may use it.
