-- migrate:up
-- Prices of model calls (issue 25). ModelPrice is the platform's list: per provider and model,
-- what a million input, cached input and output tokens cost, in micro-units of `currency`
-- (1 USD = 1 000 000), from `effectiveFrom` on; a new price is a new row, so a turn is always
-- priced at the row in force when it committed. TenantModelPrice overrides it for one tenant
-- (a negotiated price), with the same shape. A model with no row costs 0 and the turn counts
-- it as unpriced.

CREATE TABLE "ModelPrice" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "provider" TEXT NOT NULL,
  "model" TEXT NOT NULL,
  "currency" TEXT NOT NULL DEFAULT 'USD',
  "inputPerMillionMicros" BIGINT NOT NULL,
  "cachedInputPerMillionMicros" BIGINT NOT NULL,
  "outputPerMillionMicros" BIGINT NOT NULL,
  "effectiveFrom" TIMESTAMPTZ(3) NOT NULL,
  "source" TEXT,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "ModelPrice_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "ModelPrice_non_negative" CHECK ("inputPerMillionMicros" >= 0 AND "cachedInputPerMillionMicros" >= 0 AND "outputPerMillionMicros" >= 0)
);
CREATE UNIQUE INDEX "ModelPrice_provider_model_effectiveFrom_key" ON "ModelPrice"("provider", "model", "effectiveFrom");

CREATE TABLE "TenantModelPrice" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "tenantId" UUID NOT NULL,
  "provider" TEXT NOT NULL,
  "model" TEXT NOT NULL,
  "currency" TEXT NOT NULL DEFAULT 'USD',
  "inputPerMillionMicros" BIGINT NOT NULL,
  "cachedInputPerMillionMicros" BIGINT NOT NULL,
  "outputPerMillionMicros" BIGINT NOT NULL,
  "effectiveFrom" TIMESTAMPTZ(3) NOT NULL,
  "source" TEXT,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "TenantModelPrice_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "TenantModelPrice_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "TenantModelPrice_non_negative" CHECK ("inputPerMillionMicros" >= 0 AND "cachedInputPerMillionMicros" >= 0 AND "outputPerMillionMicros" >= 0)
);
CREATE UNIQUE INDEX "TenantModelPrice_tenantId_provider_model_effectiveFrom_key" ON "TenantModelPrice"("tenantId", "provider", "model", "effectiveFrom");

-- Tenants read the list prices; only the platform (owner role) writes them.
REVOKE INSERT, UPDATE, DELETE ON "ModelPrice" FROM switchboard_tenant;
ALTER TABLE "TenantModelPrice" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "TenantModelPrice" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

-- The published list prices of the models the console offers (apps/admin provider-models.ts),
-- standard tier, text, per million tokens; sources and the date they were read in docs/cost.md.
-- Gemini 2.5 Pro is its price for prompts up to 200k tokens.
INSERT INTO "ModelPrice" ("provider", "model", "currency", "inputPerMillionMicros", "cachedInputPerMillionMicros", "outputPerMillionMicros", "effectiveFrom", "source") VALUES
  ('openai', 'gpt-4.1',               'USD', 2000000,  500000,  8000000, '2025-04-14T00:00:00Z', 'https://openai.com/api/pricing/'),
  ('openai', 'gpt-4.1-mini',          'USD',  400000,  100000,  1600000, '2025-04-14T00:00:00Z', 'https://openai.com/api/pricing/'),
  ('openai', 'gpt-4.1-nano',          'USD',  100000,   25000,   400000, '2025-04-14T00:00:00Z', 'https://openai.com/api/pricing/'),
  ('openai', 'gpt-4o',                'USD', 2500000, 1250000, 10000000, '2024-10-01T00:00:00Z', 'https://openai.com/api/pricing/'),
  ('openai', 'gpt-4o-mini',           'USD',  150000,   75000,   600000, '2024-10-01T00:00:00Z', 'https://openai.com/api/pricing/'),
  ('gemini', 'gemini-2.5-pro',        'USD', 1250000,  310000, 10000000, '2025-06-17T00:00:00Z', 'https://ai.google.dev/gemini-api/docs/pricing'),
  ('gemini', 'gemini-2.5-flash',      'USD',  300000,   75000,  2500000, '2025-06-17T00:00:00Z', 'https://ai.google.dev/gemini-api/docs/pricing'),
  ('gemini', 'gemini-2.5-flash-lite', 'USD',  100000,   25000,   400000, '2025-07-22T00:00:00Z', 'https://ai.google.dev/gemini-api/docs/pricing'),
  -- The scripted provider (tests, demo) calls no model: it is free, but priced (any model: '*'), so it is not flagged.
  ('scripted', '*',                   'USD',       0,       0,        0, '2020-01-01T00:00:00Z', 'the scripted provider calls no model');

-- migrate:down
DROP TABLE "TenantModelPrice";
DROP TABLE "ModelPrice";
