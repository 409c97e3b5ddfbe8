/**
 * The scripted RUM session on tests/e2e/pages/insights/session.html, shared by the end-to-end test
 * and the third-party compatibility bench (bench/third-party.ts): wait past the 1 s cookie context,
 * click, type a secret, fetch from the allowed tracing host and from another, throw, block the main
 * thread, then leave the page.
 */
import type { Page } from 'playwright';

export const SESSION_PAGE = '/test/insights/session.html';
export const SECRET = 'my-secret-part-4KM91';

export async function driveInsightsSession(page: Page): Promise<void> {
  await page.waitForTimeout(1200);
  await page.click('#refresh');
  await page.click('#search');
  await page.keyboard.type(SECRET, { delay: 5 });
  await page.click('#traced');
  await page.locator('#out', { hasText: 'traced done' }).waitFor();
  await page.click('#untraced');
  await page.locator('#out', { hasText: 'untraced done' }).waitFor();
  await page.click('#fail');
  await page.click('#busy');
  await page.locator('#out', { hasText: 'busy done' }).waitFor();
  await page.waitForTimeout(300);
}

/** Leaving the page makes the SDK send what it holds. */
export async function leave(page: Page, blankUrl: string): Promise<void> {
  await page.goto(blankUrl);
}
