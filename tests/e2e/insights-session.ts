/**
 * The scripted RUM session on tests/e2e/pages/insights/session.html, shared by the end-to-end test
 * and the third-party compatibility bench (bench/compat/third-party.ts): wait for the cookie context (set 1 s after init),
 * click, type a secret, fetch from the allowed tracing host and from another, throw, block the main
 * thread, then leave the page.
 */
import type { Page } from 'playwright';
import { ruleVerdict } from './helpers.ts';

export const SESSION_PAGE = '/test/insights/session.html';
export const SECRET = 'my-secret-part-4KM91';

/**
 * Resolves once the container's second call to the SDK (the cookie context, made 1 s after init)
 * has run, when the RUM rule fired: on the main thread the SDK's global context has it; through Partytown the tag's status
 * says the call was made in the worker.
 */
async function cookieContextSet(page: Page): Promise<void> {
  // The bench drives the same session with no RUM tag (its modes without Datadog): nothing to wait for.
  if ((await ruleVerdict(page, 'Real user monitoring')) !== 'fired') return;
  await page.waitForFunction(() => {
    const w = window as any;
    const status = document.getElementById('offtag-rum')?.getAttribute('data-offtag-status') ?? '';
    return !!w.DD_RUM?.getGlobalContext?.()?.cookies || /^(first call forwarded|event)/.test(status);
  });
}

/** Resolves once the page has seen a long task (the SDK's observer is called in the same task, or earlier). */
async function longTaskSeen(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const seen = new PerformanceObserver(() => (seen.disconnect(), setTimeout(resolve)));
        seen.observe({ type: 'longtask', buffered: true });
      }),
  );
}

export async function driveInsightsSession(page: Page): Promise<void> {
  await cookieContextSet(page);
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
  await longTaskSeen(page);
}

/** Leaving the page makes the SDK send what it holds. */
export async function leave(page: Page, blankUrl: string): Promise<void> {
  await page.goto(blankUrl);
}
