import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { validateBrowserAnswers } from './browser-answers';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's headless Chromium; never a downloaded browser. The API's answers its pages receive are
 * checked against the OpenAPI document (browser-answers.ts).
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}. Run "bash scripts/ensure-chromium.sh" and run the tests again.`);
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
  return validateBrowserAnswers(browser);
}
