import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PrismaClient } from '@switchboard/db';
import type { Browser } from 'playwright-core';
import { openDb } from '../../integration/admin/support/admin-fixtures';
import { launchChromium } from './chromium';
import { ensureConsoleBuilt } from './console-build';

/** Where the browser specs keep the screenshots the docs show. */
export const SCREENSHOTS = join(__dirname, '..', '..', '..', 'docs', 'screenshots');

export interface ConsoleSuite {
  /** The test database (set once beforeAll has run). */
  db: PrismaClient;
  /** Headless Chromium (set once beforeAll has run). */
  browser: Browser;
}

/**
 * A browser spec's start and end, registered as its first beforeAll/afterAll (call it at the
 * top level, before the spec's own hooks): builds the console if its sources changed, opens
 * the test database and launches Chromium (and makes SCREENSHOTS when `screenshots`); closes
 * Chromium and the database afterwards. The returned object holds `db` and `browser`.
 */
export function useConsoleSuite({ screenshots = false }: { screenshots?: boolean } = {}): ConsoleSuite {
  const suite = {} as ConsoleSuite;
  beforeAll(async () => {
    ensureConsoleBuilt();
    suite.db = openDb();
    suite.browser = await launchChromium();
    if (screenshots) mkdirSync(SCREENSHOTS, { recursive: true });
  }, 240_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.db?.$disconnect();
  });
  return suite;
}
