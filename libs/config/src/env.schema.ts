import { z } from 'zod';
import { parseRedisUrl } from './redis-url';
import { trustProxySchema } from './trust-proxy';

// Development-only secrets: they let `npm run dev` and the tests start without setup, and
// production refuses them (see the refinement below), so a forgotten variable cannot ship.
export const DEV_AUTH_SECRET = 'switchboard-dev-auth-secret-change-me-0123456789';
export const DEV_MASTER_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

const MASTER_KEY_FORMAT =
  'must be 32 bytes given as 64 hex characters or base64 (e.g. `openssl rand -hex 32`)';

function isMasterKey(text: string): boolean {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return true;
  return /^[A-Za-z0-9+/]{43}=?$/.test(text) && Buffer.from(text, 'base64').length === 32;
}

/** QUEUE_PG_POOL_MAX when unset (also for an Env built by hand without it; see bull-backend.ts). */
export const DEFAULT_QUEUE_PG_POOL_MAX = 4;

// Every variable the apps read, validated once at start-up. An invalid value stops the process
// with the variable's name (see loadEnv). Add new variables here, with a default when one is safe.
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/switchboard'),
  /** Connections this process's Prisma pool may open (Postgres allows 100 in all by default). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /** One Redis (redis://…) or a Redis Cluster (redis+cluster://host:port,host:port…); see redis-url.ts. */
  REDIS_URL: z
    .string()
    .superRefine((url, ctx) => {
      try {
        parseRedisUrl(url);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `REDIS_URL ${(err as Error).message}` });
      }
    })
    .default('redis://127.0.0.1:6379'),
  /**
   * Where jobs, pub/sub, leases, locks and rate limits live: `redis` (production) or `postgres`
   * (the zero-install quick start, on DATABASE_URL). Unset: redis when REDIS_URL is set, else
   * postgres (loadEnv decides; see queueBackend()).
   */
  QUEUE_BACKEND: z.enum(['redis', 'postgres']).optional(),
  /**
   * Postgres connections per pool of the Postgres queue mode: each BullMQ Queue and Worker object
   * keeps one (plus its LISTEN client), and so does the backend's leases/pub-sub pool. A worker
   * holds several of them, so this times their count is what the mode costs Postgres per process.
   */
  QUEUE_PG_POOL_MAX: z.coerce.number().int().min(1).max(20).default(DEFAULT_QUEUE_PG_POOL_MAX),
  /** Prefix of every Redis key and queue. No braces: queue names carry the Redis Cluster hash tags. */
  QUEUE_PREFIX: z.string().min(1).regex(/^[^{}]+$/, 'must not contain { or }: the queue names carry the Redis Cluster hash tags').default('sb'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Origin allowed by CORS for the console when it is served elsewhere than the API. */
  CONSOLE_ORIGIN: z.string().default('http://localhost:5173'),
  /** Sent only to https://api.openai.com: an agent with another baseURL needs the tenant's own credential. */
  OPENAI_API_KEY: z.string().optional(),
  /** Sent only to https://generativelanguage.googleapis.com, as OPENAI_API_KEY. */
  GEMINI_API_KEY: z.string().optional(),
  /**
   * Hosts HTTP tools, webhooks and model providers' base URLs may reach even when they resolve
   * to loopback or private addresses (comma-separated). The worker checks it on every
   * connection; the API when an agent is published.
   */
  OUTBOUND_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((s) => s.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)),
  /** Messages one channel API key may post per minute (429 rate-limited beyond). */
  RATE_LIMIT_KEY_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** Messages all keys of one tenant may post per minute. */
  RATE_LIMIT_TENANT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(3000),
  /** New widget visitor sessions (tokens issued or renewed) one address may ask one widget for per hour. */
  WIDGET_SESSIONS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /** New widget visitor sessions one widget may hand out per hour, all addresses together. */
  WIDGET_SESSIONS_PER_WIDGET_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(20_000),
  /** Messages one widget visitor may send per minute (they also count against the tenant's limit). */
  WIDGET_MESSAGES_PER_VISITOR_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20),
  /** The built web widget the API serves at /widget.js and /widget/ (default apps/widget/dist). */
  WIDGET_DIST_DIR: z.string().optional(),
  /**
   * The API's public origin (https://bots.example.com): channel adapters tell platforms their
   * webhook URL under it (Telegram's setWebhook, the console's "paste this URL"). Unset: the
   * origin the console's request came to.
   */
  PUBLIC_API_URL: z.string().url().optional(),
  /** Signs the console's access tokens (HS256). */
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -hex 32`)').default(DEV_AUTH_SECRET),
  /**
   * `Secure` flag of the console's refresh-token cookie: `auto` sets it when the request came
   * over TLS (directly, or per X-Forwarded-Proto from the proxy in front); `always` sets it on
   * every answer, for a TLS-terminating proxy that does not send X-Forwarded-Proto.
   */
  AUTH_COOKIE_SECURE: z.enum(['auto', 'always']).default('auto'),
  /**
   * Which peer may tell the API the client's address and scheme (X-Forwarded-For,
   * X-Forwarded-Proto): unset / `off` (default: nobody, the peer is the client), a hop count, or
   * the proxies' addresses / CIDRs. The login throttle and the widget's per-address limits key
   * on the address this yields; the refresh cookie's `Secure` (auto) on the scheme.
   */
  TRUST_PROXY: trustProxySchema,
  /**
   * Port of the API's Prometheus endpoint (GET /metrics), apart from the public HTTP port: the
   * metrics name every route and the platform-wide queue counts. 0 turns it off.
   */
  API_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9465),
  /** Address the API's metrics port listens on: loopback unless the scraper is on another host. */
  API_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * When set, the API's and the worker's metrics ports answer only `Authorization: Bearer <token>`
   * (401 otherwise): for a metrics port reachable by more than the scraper.
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 24`)').optional(),
  /** Encrypts secrets at rest (AES-256-GCM): provider keys, webhook secrets, HTTP tool headers. */
  MASTER_KEY: z.string().refine(isMasterKey, MASTER_KEY_FORMAT).default(DEV_MASTER_KEY),
});

/**
 * Problems only production has: a development secret left in place. Kept apart from envSchema
 * (a refinement would stop `.partial()` and `.shape` working for the tools that read it).
 */
export function productionSecretIssues(env: Pick<Env, 'NODE_ENV' | 'AUTH_SECRET' | 'MASTER_KEY'>): { variable: string; message: string }[] {
  if (env.NODE_ENV !== 'production') return [];
  const issues: { variable: string; message: string }[] = [];
  if (env.AUTH_SECRET === DEV_AUTH_SECRET) {
    issues.push({ variable: 'AUTH_SECRET', message: 'is not set; production needs its own random secret of 32+ characters' });
  }
  if (env.MASTER_KEY === DEV_MASTER_KEY) {
    issues.push({ variable: 'MASTER_KEY', message: `is not set; production needs its own key, which ${MASTER_KEY_FORMAT}` });
  }
  return issues;
}

export type Env = z.infer<typeof envSchema>;

export type QueueBackend = NonNullable<Env['QUEUE_BACKEND']>;

/** The backend the apps run on. An Env not made by loadEnv (tests) without QUEUE_BACKEND is on Redis. */
export function queueBackend(env: Pick<Env, 'QUEUE_BACKEND'>): QueueBackend {
  return env.QUEUE_BACKEND ?? 'redis';
}
