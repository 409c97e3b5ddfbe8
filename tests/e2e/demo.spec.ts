import { expect, test } from '@playwright/test';
import { SERVERS, resetServers, waitForBeacons } from './helpers.ts';

/** The demo as a newcomer meets it: a page view at load, the collector panel, phone width, a clean console. */
test.beforeEach(async ({ request }) => {
  await resetServers(request);
});

for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
  test(`the demo at ${viewport.width} px: page view at load, every beacon listed with its link URL, decoded on click, clear, rounded metrics, no console errors`, async ({ page, request }, info) => {
    await page.setViewportSize(viewport);
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    await page.goto('/');
    await waitForBeacons(request, 1);
    const list = page.locator('#beacons > li');
    await expect(list.first()).toContainText('page view · acme:product detail:product 4km91');

    await page.click('#download-link');
    await page.click('#exit-link');
    for (let i = 0; i < 12; i++) await page.click('[data-track="Element Impressions"]');
    await waitForBeacons(request, 15);
    await expect(list).toHaveCount(15);
    await expect(page.locator('#beacons')).toContainText(`download link · ${SERVERS.page}/files/safety-data-sheet.pdf`);
    await expect(page.locator('#beacons')).toContainText('exit link · https://partner.example.org/catalog');
    await list.last().locator('summary').click();
    await expect(list.last().locator('table')).toContainText('eVar11');

    const metrics = await page.locator('#metrics').textContent();
    for (const n of metrics!.match(/-?\d+\.\d+/g) ?? []) expect(n.split('.')[1]!.length).toBeLessThanOrEqual(3);

    // Fits the screen: nothing wider than the viewport.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: info.outputPath(`demo-${viewport.width}.png`), fullPage: true });

    await page.click('#clear-beacons');
    await expect(list).toHaveCount(0);
    expect(problems).toEqual([]);
  });
}
