/**
 * OAuth2 sign-in while pairing, headless (the drivers Web API, as a script would): the driver's
 * callback gives the provider's sign-in page; after signing in there, the address the browser
 * ends on is handed to the session, and the driver swaps its code for a token. What a person may
 * paste wrong gets a sentence; a provider's refusal reaches the driver as Homey's does (an Error).
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { CALLBACK, OAUTH_APP, OAUTH_DRIVER, startProvider, writeOAuthApp } from './oauth2-app.js';

interface Session {
  id: string;
  toView: Array<{ kind: string; event?: string; data?: unknown }>;
}

let hub: RunningHub;
let provider: { server: Server; url: string };

beforeAll(async () => {
  provider = await startProvider();
  const appsDir = await tempDir('hearth-oauth2-');
  await writeOAuthApp(appsDir, provider.url);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, OAUTH_APP);
}, 60_000);

afterAll(async () => {
  provider?.server.close();
  await hub?.stop();
  await hub?.cleanup();
});

const emitted = async (id: string, event: string): Promise<unknown> => {
  const s = await poll(
    () => hub.call<Session>('GET', `/api/manager/drivers/pairsession/${id}`),
    (r) => r.body.toView.some((m) => m.kind === 'emit' && m.event === event),
    `the driver to emit '${event}'`,
  );
  return s.body.toView.findLast((m) => m.event === event)?.data;
};

const open = async (): Promise<string> => (await hub.call<Session>('POST', '/api/manager/drivers/pairsession', { body: { driverId: OAUTH_DRIVER } })).body.id;

describe('login_oauth2', () => {
  it("signs in with the address the provider's sign-in ended on, and pairs with the token", async () => {
    const id = await open();
    const url = (await emitted(id, 'url')) as string;
    expect(url).toBe(`${provider.url}/authorize?response_type=code&client_id=hearth-test&redirect_uri=${encodeURIComponent(CALLBACK)}`);
    // The person signs in; the provider sends the browser to Athom's callback page, with the code.
    const landed = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
    expect(landed).toBe(`${CALLBACK}?code=code-for-hearth-test`);
    const handed = await hub.call('POST', `/api/manager/drivers/pairsession/${id}/oauth2`, { body: { url: `  ${landed}  ` } });
    expect(handed.status).toBe(200);
    await emitted(id, 'authorized');
    const listed = await hub.call<Array<{ name: string; store: { token: string } }>>('POST', `/api/manager/drivers/pairsession/${id}/emit`, {
      body: { event: 'list_devices' },
    });
    expect(listed.body).toEqual([{ name: 'Thermostat', data: { id: 'thermo-1' }, store: { token: 'token-hearth-test' } }]);
    await hub.call('DELETE', `/api/manager/drivers/pairsession/${id}`);
  });

  it("says what to paste when the address holds no code, and passes the provider's refusal to the driver", async () => {
    const id = await open();
    await emitted(id, 'url');
    const cases: Array<[string, RegExp]> = [
      ['callback.athom.com', /paste the whole address of the page the sign-in ended on/],
      [`${CALLBACK}?state=x`, /that address holds no sign-in code/],
    ];
    for (const [pasted, sentence] of cases) {
      const r = await hub.call<{ error_description: string }>('POST', `/api/manager/drivers/pairsession/${id}/oauth2`, { body: { url: pasted } });
      expect([r.status, r.body.error_description]).toEqual([400, expect.stringMatching(sentence)]);
    }
    const refused = await hub.call('POST', `/api/manager/drivers/pairsession/${id}/oauth2`, {
      body: { url: `${CALLBACK}?error=access_denied&error_description=The+person+said+no` },
    });
    expect(refused.status).toBe(200);
    expect(await emitted(id, 'error')).toBe('access_denied: The person said no');
    // A code the provider does not know: the driver's token request fails, and it says so.
    await hub.call('POST', `/api/manager/drivers/pairsession/${id}/oauth2`, { body: { url: `${CALLBACK}?code=forged` } });
    await poll(
      () => hub.call<Session>('GET', `/api/manager/drivers/pairsession/${id}`),
      (r) => r.body.toView.some((m) => m.data === 'the provider refused the code: invalid_grant'),
      'the driver to report the refused code',
    );
    await hub.call('DELETE', `/api/manager/drivers/pairsession/${id}`);
  });
});
