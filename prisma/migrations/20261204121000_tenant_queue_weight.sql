-- migrate:up
-- Fair scheduling across tenants (docs/fairness.md): a tenant's share of the workers when
-- several have messages waiting. 1 = an equal share; 3 = three turns for every one of a tenant at 1.
ALTER TABLE "Tenant" ADD COLUMN "queueWeight" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "Tenant" ADD CONSTRAINT "Tenant_queueWeight_check" CHECK ("queueWeight" BETWEEN 1 AND 100);

-- migrate:down
ALTER TABLE "Tenant" DROP CONSTRAINT "Tenant_queueWeight_check";
ALTER TABLE "Tenant" DROP COLUMN "queueWeight";
