/**
 * The Flows page in Chromium against a real hub running the weather app (test/managers/flow/
 * weather-app.ts, written from Homey's docs): build a flow in the editor by searching its cards
 * (a trigger, a condition turned round, an action whose text takes a token), test it unsaved,
 * save it, start it and read its log; an autocomplete argument's choices come from the app; a
 * refused save shows the hub's sentence.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { flowsOf } from '../managers/flow/helpers.js';
import { CRASHY, WEATHER, writeWeatherApp } from '../managers/flow/weather-app.js';
import { type Browser, launch, screenshots, signedIn } from './browser.js';

let hub: RunningHub;
let browser: Browser;
let page: Page;
const { lastMessage } = flowsOf(() => hub);

beforeAll(async () => {
  const appsDir = await tempDir('hearth-web-flows-');
  await writeWeatherApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, WEATHER);
  await poll(lastMessage, (v) => v === '', 'the weather app to make its token');
  await hub.call('POST', '/api/manager/logic/variable', { body: { name: 'Greeting', type: 'string', value: 'hello' } });
  browser = await launch();
  page = await signedIn(browser.context, hub.url, OWNER, '#/flows');
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await hub?.cleanup();
});

const pick = async (kind: string, query: string, title: string) => {
  await page.getByTestId(`find-${kind}`).last().fill(query);
  await page.getByTestId('card-option').filter({ hasText: title }).first().click();
};

describe('the Flows page', () => {
  test('builds a flow from searched cards, tests it, saves it, starts it and shows its log', async () => {
    await page.getByTestId('no-flows').waitFor();
    await page.getByTestId('new-flow').click();
    await page.getByTestId('flow-name').fill('Windy greeting');
    await pick('trigger', 'wind', 'The wind starts');
    // A condition, turned round with one tap: "it is not raining there" holds.
    await pick('condition', 'raining', 'It is raining');
    const condition = page.getByTestId('column-and').getByTestId('step');
    await condition.getByTestId('arg-where').fill('there');
    expect(await condition.getByTestId('card-title').textContent()).toBe('It is raining');
    await condition.getByRole('button', { name: 'Turn round' }).click();
    expect(await condition.getByRole('button', { name: 'Turn round' }).getAttribute('aria-pressed')).toBe('true');
    // The card reads as the flow turns it: Homey's title holds both readings.
    expect(await condition.getByTestId('card-title').textContent()).toBe('It is not raining');
    expect(await condition.getByTestId('card-owner').textContent()).toBe('weather');
    await page.getByTestId('column-then').getByTestId('find-action').fill('remember');
    await page.getByTestId('column-then').getByTestId('card-option').filter({ hasText: 'Remember a message' }).click();
    const action = page.getByTestId('column-then').getByTestId('step');
    // Homey's "Remember [[message]] ([[amount]])": each blank is its field, in the sentence.
    const title = action.getByTestId('card-title');
    expect(await title.textContent()).toBe('Remember  ()');
    expect(await title.locator('input').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')))).toEqual(['Message', 'Amount']);
    // A token is a pill: tapped, it goes into the text blank chosen last, at its cursor. The
    // home's tokens are found by a search (a real home has hundreds); the trigger's are at hand.
    await action.getByTestId('arg-message').fill('wind says ');
    expect(await page.getByTestId('token-pill').count()).toBe(0);
    await page.getByTestId('token-search').fill('greet');
    await page.getByTestId('token-pill').filter({ hasText: 'Logic: Greeting' }).click();
    expect(await action.getByTestId('arg-message').inputValue()).toMatch(/^wind says \[\[homey:manager:logic\|[0-9a-f-]+\]\]$/);
    expect(await action.getByTestId('token-text').textContent()).toBe('wind says Logic: Greeting');

    await page.getByTestId('flow-test').click();
    await page.getByTestId('flow-tested').getByText('Tested: ran (then)').waitFor();
    expect(await lastMessage()).toBe('wind says hello');
    expect(Object.keys((await hub.call('GET', '/api/manager/flow/flow')).body as object)).toEqual([]);
    // Each card is lit by how it went.
    expect(await page.getByTestId('step').evaluateAll((els) => els.map((el) => el.getAttribute('data-outcome')))).toEqual(['done', 'true', 'done']);
    expect(await page.getByTestId('card-outcome').allTextContents()).toEqual(['Done', 'Held', 'Done']);
    await screenshots(page, 'flow-editor-tested');
    // Any change puts the lights out: they told of the flow as it was.
    await action.getByTestId('arg-message').fill('wind says hi');
    expect(await page.getByTestId('card-outcome').count()).toBe(0);
    // Dragged onto a blank, a token lands where it is dropped (here the field's middle).
    await page.getByTestId('token-pill').filter({ hasText: 'Logic: Greeting' }).dragTo(action.getByTestId('arg-message'));
    const dropped = /\[\[homey:manager:logic\|[0-9a-f-]+\]\]/;
    await expect.poll(() => action.getByTestId('arg-message').inputValue()).toMatch(dropped);
    expect((await action.getByTestId('arg-message').inputValue()).replace(dropped, '')).toBe('wind says hi');
    await action.getByTestId('arg-message').fill('wind says ');
    await page.getByTestId('token-pill').filter({ hasText: 'Logic: Greeting' }).click();

    await page.getByTestId('flow-save').click();
    const row = page.getByTestId('flow-Windy greeting');
    await row.waitFor();
    // The list says what the flow does, not its name alone.
    await expect
      .poll(() => row.getByTestId('flow-sentence').textContent())
      .toBe('When the wind starts, and it is not raining, then remember “wind says [a value]”');
    await row.getByTestId('flow-start').click();
    await row.getByTestId('flow-last').getByText(/^Ran /).waitFor();
    // It still says so after a reload (the hub keeps each flow's last run).
    await page.reload();
    await row.getByTestId('flow-last').getByText(/^Ran /).waitFor();
    // On and off with a switch, named by the flow.
    const enabled = row.getByRole('switch', { name: 'Windy greeting is on' });
    expect(await enabled.isChecked()).toBe(true);
    await enabled.click();
    const stored = async (): Promise<boolean | undefined> => Object.values(await hub.op('flow', 'getFlows')).find((f) => f.name === 'Windy greeting')?.enabled;
    await expect.poll(stored).toBe(false);
    await expect.poll(() => enabled.isChecked()).toBe(false);
    await enabled.click();
    await expect.poll(() => enabled.isChecked()).toBe(true);
    await row.getByTestId('flow-show-log').click();
    await row.getByTestId('flow-run').first().waitFor();
    expect(await row.getByTestId('flow-run').first().textContent()).toContain('ran (then)');
    // Each card by the editor's words and its title, the condition as the flow reads it.
    expect(await row.getByTestId('flow-run').first().locator('li').allTextContents()).toEqual([
      'When weather: The wind starts — done',
      'And weather: It is not raining — held',
      'Then weather: Remember a message — done',
    ]);
    await screenshots(page, 'flows');
  });

  test("an autocomplete argument offers the app's choices; a refused save says why", async () => {
    await page.getByTestId('new-flow').click();
    await page.getByTestId('flow-name').fill('Music');
    await pick('trigger', 'rain', 'It starts raining');
    await page.getByTestId('column-then').getByTestId('find-action').fill('artist');
    await page.getByTestId('column-then').getByTestId('card-option').filter({ hasText: 'Play an artist' }).click();
    // The trigger's dropdown is left empty: the hub refuses and says which argument.
    await page.getByTestId('arg-artist').fill('beet');
    await page.getByTestId('arg-choice').filter({ hasText: 'Ludwig van Beethoven' }).click();
    await page.getByTestId('flow-save').click();
    await page.getByText("card 'It starts raining' needs its argument 'location' (Location)").waitFor();
    await page.getByTestId('arg-location').selectOption('home');
    await page.getByTestId('flow-save').click();
    await page.getByTestId('flow-Music').waitFor();
    const flows = Object.values(
      (await hub.call<Record<string, { name: string; actions: Array<{ args: { artist: { name: string; id: string } } }> }>>('GET', '/api/manager/flow/flow'))
        .body,
    );
    expect(flows.find((f) => f.name === 'Music')?.actions[0]?.args.artist).toMatchObject({ name: 'Ludwig van Beethoven', id: 'beethoven' });
  });

  test('a test run lights a failed card red with the reason, and greys the branch that did not run', async () => {
    await waitAppRunning(hub, CRASHY);
    await page.getByTestId('new-flow').click();
    await pick('trigger', 'wind', 'The wind starts');
    await pick('condition', 'raining', 'It is raining');
    await page.getByTestId('column-and').getByTestId('arg-where').fill('here');
    const then = page.getByTestId('column-then');
    await then.getByTestId('find-action').fill('explode');
    await then.getByTestId('card-option').filter({ hasText: 'Explode' }).click();
    await then.getByTestId('find-action').fill('remember');
    await then.getByTestId('card-option').filter({ hasText: 'Remember a message' }).click();
    await then.getByTestId('arg-message').fill('after the bang');
    const otherwise = page.getByTestId('column-else');
    await otherwise.getByTestId('find-action').fill('remember');
    await otherwise.getByTestId('card-option').filter({ hasText: 'Remember a message' }).click();
    await otherwise.getByTestId('arg-message').fill('dry');

    await page.getByTestId('flow-test').click();
    await page
      .getByTestId('flow-tested')
      .getByText(/^Tested: failed \(then\)/)
      .waitFor();
    expect(await page.getByTestId('step').evaluateAll((els) => els.map((el) => el.getAttribute('data-outcome')))).toEqual([
      'done',
      'true',
      'failed',
      'done',
      'unreached',
    ]);
    const said = await page.getByTestId('card-outcome').allTextContents();
    expect(said[2]).toMatch(/^Failed: .+/);
    expect(said.slice(3)).toEqual(['Done', 'Did not run']);
    // The action after the failed one still ran.
    expect(await lastMessage()).toBe('after the bang');
    await page.getByRole('button', { name: 'Cancel' }).click();
  });
});
