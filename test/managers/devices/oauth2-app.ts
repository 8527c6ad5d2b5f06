/**
 * A cloud driver app that signs in with OAuth2, written from Homey's docs (Pairing > System Views >
 * OAuth2 Login, and Cloud > OAuth2): a login_oauth2 view, `this.homey.cloud.createOAuth2Callback`
 * with the provider's authorization URL, its `url` event sent to the view, its `code` swapped for
 * a token at the provider, and `authorized` said to the view. The provider is a server the test
 * runs on 127.0.0.1, which signs anyone in and redirects to Athom's callback page, as a real one
 * registered for Homey apps does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeHomeyApp } from '../../homey/apps.js';

export const OAUTH_APP = 'com.example.cloudthermo';
export const OAUTH_DRIVER = `homey:app:${OAUTH_APP}:thermostat`;
export const CALLBACK = 'https://callback.athom.com/oauth2/callback/';

/** The provider: /authorize redirects to the callback with a code; /token swaps a code for a token. */
export async function startProvider(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/authorize') {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? CALLBACK);
      redirect.searchParams.set('code', `code-for-${url.searchParams.get('client_id')}`);
      res.writeHead(302, { location: redirect.href }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const code = new URLSearchParams(body).get('code');
        res.writeHead(code?.startsWith('code-for-') ? 200 : 400, { 'content-type': 'application/json' });
        res.end(JSON.stringify(code?.startsWith('code-for-') ? { access_token: `token-${code.slice(9)}`, token_type: 'bearer' } : { error: 'invalid_grant' }));
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * `urlOn`: when the driver makes its sign-in address: as the session starts (Homey's docs), or
 * once the login view is shown (the `showView` handler, as Athom's homey-oauth2app does), which
 * is after the page has started listening.
 */
const driverJs = (provider: string, urlOn: 'pair' | 'showView') => `'use strict';
const Homey = require('homey');

const API_URL = '${provider}/authorize?response_type=code';
const CALLBACK_URL = '${CALLBACK}';
const CLIENT_ID = 'hearth-test';

module.exports = class ThermostatDriver extends Homey.Driver {
  async onPair(session) {
    let token = null;
    const signIn = async () => {
    const myOAuth2Callback = await this.homey.cloud.createOAuth2Callback(
      API_URL + '&client_id=' + CLIENT_ID + '&redirect_uri=' + encodeURIComponent(CALLBACK_URL),
    );
    myOAuth2Callback
      .on('url', (url) => {
        session.emit('url', url);
        this.log('sent the sign-in address');
      })
      .on('code', async (code) => {
        if (code instanceof Error) {
          session.emit('error', code.message);
          return;
        }
        const res = await fetch('${provider}/token', {
          method: 'POST',
          body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: CLIENT_ID }),
        });
        const answer = await res.json();
        if (!res.ok) {
          session.emit('error', 'the provider refused the code: ' + answer.error);
          return;
        }
        token = answer.access_token;
        session.emit('authorized');
      });
    };
    ${urlOn === 'pair' ? 'await signIn();' : "session.setHandler('showView', async (view) => { if (view === 'login_oauth2') await signIn(); });"}
    session.setHandler('list_devices', async () => [{ name: 'Thermostat', data: { id: 'thermo-1' }, store: { token } }]);
  }
};
`;

export async function writeOAuthApp(appsDir: string, provider: string, urlOn: 'pair' | 'showView' = 'pair'): Promise<void> {
  await writeHomeyApp(appsDir, OAUTH_APP, {
    json: {
      drivers: [
        {
          id: 'thermostat',
          name: { en: 'Cloud thermostat' },
          class: 'thermostat',
          capabilities: ['target_temperature'],
          connectivity: ['cloud'],
          pair: [
            { id: 'login_oauth2', template: 'login_oauth2', options: { hint: { en: 'Sign in with your Thermo account' } } },
            { id: 'list_devices', template: 'list_devices', navigation: { next: 'add_devices' } },
            { id: 'add_devices', template: 'add_devices' },
          ],
        },
      ],
    },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      'drivers/thermostat/driver.js': driverJs(provider, urlOn),
      'drivers/thermostat/device.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.Device {};\n",
    },
  });
}
