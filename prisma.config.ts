import { defineConfig } from 'prisma/config';

// The URL is only read by CLI commands that talk to the database; `prisma generate` does not,
// so a placeholder keeps generation working on machines with no database configured.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/switchboard' },
});
