// A relative path: jest's globalSetup loads this file too, without the workspace's path aliases.
import { backendWhenUnset } from '../../libs/config/src/load-env';
import { Client } from 'pg';
import { ADMIN_DATABASE_URL } from './test-database';

// One suite at a time runs Postgres-mode apps.
//
// Postgres has 100 connections on the test machines, and a Postgres-mode worker holds about 17 of
// them at rest: BullMQ's Postgres backend gives each of its queues and workers a pool of its own,
// and each worker a LISTEN connection (docs/hot-path.md, "One BullMQ pool per process"). Two
// suites that each run an API and a few such workers, side by side on jest's two workers, reached
// 98 of the 100 (6 December) and their workers failed with "sorry, too many clients already".
//
// The slot is a Postgres advisory lock, held on a connection of its own to the server's
// `postgres` database: the whole server's connections are what is shared (another jest run on the
// machine counts too), and a jest worker that dies lets go of the lock with its connection.

/** The advisory lock's key: any fixed number no other code locks. */
const SLOT_LOCK_KEY = 7_310_442_001;

/** How long a suite waits for the slot: the longest Postgres-mode suite (chaos) and then some. */
export const SLOT_WAIT_MS = 10 * 60_000;

/** The connection that holds (or waits for) the lock, and when it holds it. */
interface Slot {
  client: Client;
  locked: Promise<void>;
  /** Fails `locked` at once: node-postgres never settles a connect its own end() cut short. */
  abandon(): void;
}

let slot: Slot | undefined;
let held = false;
/** Nested holds (a suite, and the chaos run it calls) share the one lock. */
let holds = 0;

/** Postgres mode as the apps decide it (loadEnv): QUEUE_BACKEND=postgres, or unset (or empty) without REDIS_URL. */
export function isPostgresMode(env: Record<string, string | undefined>): boolean {
  return (env.QUEUE_BACKEND || backendWhenUnset(env)) === 'postgres';
}

/** Waits (up to SLOT_WAIT_MS) until no other suite runs Postgres-mode apps, then holds the slot. */
export async function acquirePostgresModeSlot(): Promise<void> {
  holds++;
  const current = (slot ??= open());
  try {
    await current.locked;
  } catch (err) {
    // Every hold waiting on this connection failed with it (unless it was let go meanwhile).
    if (slot === current) {
      slot = undefined;
      holds = 0;
    }
    throw err;
  }
  // Let go while it waited (an afterAll after its beforeAll timed out): not held.
  if (slot === current) held = true;
}

/** Lets go with the last hold, at once: closing the connection releases the lock or stops the wait. */
export async function releasePostgresModeSlot(): Promise<void> {
  if (holds === 0 || --holds > 0) return;
  const current = slot;
  slot = undefined;
  held = false;
  current?.abandon();
  await current?.client.end().catch(() => undefined);
}

function open(): Slot {
  const client = new Client({ connectionString: ADMIN_DATABASE_URL, application_name: 'switchboard-test-postgres-mode-slot' });
  client.on('error', () => undefined); // the server went away: so did the lock
  const taking = (async () => {
    try {
      await client.connect();
      await client.query(`SET lock_timeout = ${SLOT_WAIT_MS}`);
      await client.query('SELECT pg_advisory_lock($1)', [SLOT_LOCK_KEY]);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw new Error(`could not take the Postgres-mode slot (another suite held it for ${SLOT_WAIT_MS / 60_000} min?): ${(err as Error).message}`);
    }
  })();
  let abandon!: () => void;
  const abandoned = new Promise<never>((_, reject) => {
    abandon = () => reject(new Error('could not take the Postgres-mode slot: let go while waiting for it'));
  });
  // Whichever loses the race settles unwatched (or never).
  taking.catch(() => undefined);
  abandoned.catch(() => undefined);
  return { client, locked: Promise.race([taking, abandoned]), abandon };
}

/**
 * Holds the slot from the enclosing block's beforeAll to its afterAll when `backendEnv` (what the
 * block's apps get over the test run's environment) is Postgres mode. Call it first in the block,
 * so its beforeAll runs before the ones that start apps.
 */
export function holdPostgresModeSlot(backendEnv: Record<string, string>): void {
  if (!isPostgresMode({ ...process.env, ...backendEnv })) return;
  beforeAll(() => acquirePostgresModeSlot(), SLOT_WAIT_MS + 30_000);
  afterAll(() => releasePostgresModeSlot());
}

/** Throws unless this process holds the slot: called where Postgres-mode apps are started. */
export function assertPostgresModeSlot(what: string): void {
  if (held) return;
  throw new Error(
    `${what} starts in Postgres mode without the Postgres-mode slot: call holdPostgresModeSlot() in the suite's describe (test/support/postgres-mode-slot.ts), so two such suites never run out of Postgres's connections side by side`,
  );
}
