// Seeds the demo: a platform admin login, the "Demo Hotel" tenant with its owner, the Concierge
// agent (published as version 1), a channel and its API key (DEMO_API_KEY). Idempotent: a second
// run with the same environment changes nothing. Run: node -r @swc-node/register prisma/seed.ts
import { conciergeAgentConfig, parseAgentConfig } from '@switchboard/agent-config';
import { loadEnv } from '@switchboard/config';
import { createPrismaClient } from '@switchboard/db';
import { MIN_PASSWORD_LENGTH, hashPassword, verifyPassword } from '../apps/api/src/admin/auth/password';
import { demoSettingsFromEnv } from './seed/demo-settings';
import { seedDemo } from './seed/seed-demo';

async function main(): Promise<void> {
  const env = loadEnv();
  const settings = demoSettingsFromEnv(process.env, MIN_PASSWORD_LENGTH);
  // Checked like a published config is, so the worker never meets a seed it cannot build.
  const agentConfig = parseAgentConfig(
    settings.provider ? { ...conciergeAgentConfig, provider: settings.provider } : conciergeAgentConfig,
  );

  const prisma = createPrismaClient({ connectionString: env.DATABASE_URL, max: 2 });
  try {
    const report = await seedDemo(prisma, settings, { hashPassword, verifyPassword, agentConfig });
    if (report.changes.length === 0) console.log('seed: the demo data is already in place; nothing changed');
    for (const change of report.changes) console.log(`seed: ${change}`);
    for (const note of report.notes) console.log(`seed: note: ${note}`);
  } finally {
    await prisma.$disconnect();
  }
}

main().catch((err: unknown) => {
  const e = err as { code?: string; message?: string };
  console.error(`seed failed${e.code ? ` (${e.code})` : ''}: ${e.message ?? String(err)}`);
  process.exitCode = 1;
});
