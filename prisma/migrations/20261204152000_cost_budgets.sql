-- migrate:up
-- Monthly money budgets (issue 25, docs/cost.md), beside the call and token quotas: the most a
-- tenant's turns may cost in a calendar month (UTC), in micro-units of USD; null = no budget.
-- budgetWarnedMonth is the first day of the month whose 80% notice was given (audit entry, metric),
-- so the notice is given once a month by whichever process sees the threshold first.
ALTER TABLE "Tenant" ADD COLUMN "monthlyBudgetMicros" BIGINT;
ALTER TABLE "Tenant" ADD COLUMN "budgetWarnedMonth" DATE;
ALTER TABLE "Tenant" ADD CONSTRAINT "Tenant_monthlyBudgetMicros_non_negative" CHECK ("monthlyBudgetMicros" >= 0);

-- migrate:down
ALTER TABLE "Tenant" DROP CONSTRAINT "Tenant_monthlyBudgetMicros_non_negative";
ALTER TABLE "Tenant" DROP COLUMN "budgetWarnedMonth";
ALTER TABLE "Tenant" DROP COLUMN "monthlyBudgetMicros";
