import type { Browser, BrowserContext, Response } from 'playwright-core';
import { checkAnswerLater } from '../../support/answer-validation';

/**
 * Every answer a page of `browser` receives from an API process of this run is checked against
 * that API's OpenAPI document, with the same validator as the suite's `fetch`
 * (test/support/answer-validation.ts): a mismatch fails the test that was running. Each new
 * context is watched (Browser.newPage makes its context through newContext too).
 */
export function validateBrowserAnswers(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>): Promise<BrowserContext> => {
    const context = await newContext(...args);
    context.on('response', checkResponse);
    return context;
  };
  return browser;
}

function checkResponse(response: Response): void {
  const contentType = response.headers()['content-type'] ?? null;
  // Started now, while the body is still there: a page that moves on may discard it.
  const body = contentType?.startsWith('application/json') ? response.text().catch(() => null) : Promise.resolve(null);
  checkAnswerLater(response.request().method(), new URL(response.url()), { status: response.status(), contentType, text: () => body });
}
