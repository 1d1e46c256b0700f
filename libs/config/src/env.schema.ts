import { z } from 'zod';

// Every variable the apps read, validated once at start-up. An invalid value stops the process
// with the variable's name (see loadEnv). Add new variables here, with a default when one is safe.
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/switchboard'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Prefix of every BullMQ key, so test runs and deployments can share one Redis. */
  QUEUE_PREFIX: z.string().min(1).default('sb'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Origin allowed by CORS for the console when it is served elsewhere than the API. */
  CONSOLE_ORIGIN: z.string().default('http://localhost:5173'),
  OPENAI_API_KEY: z.string().optional(),
  GEMINI_API_KEY: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;
