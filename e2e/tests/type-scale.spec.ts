// The type on the list screens, as Chromium draws it: no text under 13 px on a screen read all day,
// and at most four sizes on each (labels and headers, text, totals, titles).
import { expect, test } from './fixtures.ts';

const listScreens = ['/email', '/all-email', '/journals', '/missing-data', '/text-email-data', '/overage', '/excel-email-data'];

for (const path of listScreens) {
  test(`${path}: no text under 13 px, at most four sizes`, async ({ signedIn: page }) => {
    await page.goto(path);
    await expect(page.locator('main h1')).toBeVisible();
    await expect(page.getByRole('table').first().locator('tbody tr').first()).toBeVisible();
    // Each element that draws text of its own (a text node child with more than spaces), visible.
    const sizes = await page.evaluate(() => {
      const seen: Record<string, string> = {};
      for (const element of document.querySelectorAll('body *')) {
        const own = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '');
        if (!own || !(element as HTMLElement).checkVisibility?.({ visibilityProperty: true })) continue;
        const style = getComputedStyle(element);
        if (style.clip === 'rect(0px, 0px, 0px, 0px)' || style.clipPath === 'inset(50%)') continue; // read to screen readers only
        seen[style.fontSize] ??= `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}: ${element.textContent!.trim().slice(0, 30)}`;
      }
      return seen;
    });
    const px = Object.keys(sizes).map((size) => parseFloat(size));
    expect(
      px.filter((size) => size < 13).map((size) => `${size}px ${sizes[`${size}px`]}`),
      'text under 13 px',
    ).toEqual([]);
    expect(px.length, JSON.stringify(sizes)).toBeLessThanOrEqual(4);
  });
}
