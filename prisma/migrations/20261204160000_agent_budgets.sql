-- migrate:up
-- Per-agent monthly money budgets (issue 25, docs/cost.md), optional, beside the tenant's: the most
-- one agent's turns may cost in a calendar month (UTC), in micro-units of USD; null = no budget of
-- its own (the tenant's still applies). budgetWarnedMonth is the first day of the month whose 80%
-- notice was given for this agent, so each agent's notice is given once a month.
ALTER TABLE "Agent" ADD COLUMN "monthlyBudgetMicros" BIGINT;
ALTER TABLE "Agent" ADD COLUMN "budgetWarnedMonth" DATE;
ALTER TABLE "Agent" ADD CONSTRAINT "Agent_monthlyBudgetMicros_non_negative" CHECK ("monthlyBudgetMicros" >= 0);

-- migrate:down
ALTER TABLE "Agent" DROP CONSTRAINT "Agent_monthlyBudgetMicros_non_negative";
ALTER TABLE "Agent" DROP COLUMN "budgetWarnedMonth";
ALTER TABLE "Agent" DROP COLUMN "monthlyBudgetMicros";
