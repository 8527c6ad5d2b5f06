// The looks every picture is taken in (light and dark, on a tablet and on a phone), and a page
// signed in with a token in one of them, for scripts/screenshots.mjs and its parts.

/** In the order the pictures are taken; `suffix` ends each picture's file name. */
export const LOOKS = ['light', 'dark'].flatMap((scheme) =>
  [
    ['tablet', { width: 1024, height: 768 }],
    ['phone', { width: 390, height: 844 }],
  ].map(([size, viewport]) => ({ scheme, size, viewport, suffix: `${size === 'phone' ? 'phone-' : ''}${scheme}.png` })),
);

/** A new browser context in `look` with a page of `url` (its route included), signed in with `token`. */
export async function signedInPage(browser, look, url, token) {
  const context = await browser.newContext({ viewport: look.viewport, colorScheme: look.scheme, deviceScaleFactor: look.size === 'phone' ? 2 : 1 });
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('input[name=token]').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return { context, page };
}
