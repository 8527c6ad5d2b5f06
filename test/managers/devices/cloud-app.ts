/**
 * A cloud-account driver app written from Homey's pairing docs: the login_credentials system view
 * (the driver's `login` handler checks the account), then a custom view of the app's own
 * (`drivers/account/pair/choose.html`) that sets its title, hears an event the driver emits when
 * the view is shown, asks the driver for the account's lamps with `Homey.emit`, and adds the one
 * clicked with `Homey.createDevice` before `Homey.done()`. Its repair signs in again and renews
 * the device's stored token (onRepair).
 */
import type { RunningHub } from '../../helpers/hub.js';
import { writeHomeyApp } from '../../homey/apps.js';

export const CLOUD_APP = 'com.example.cloudlamp';
export const ACCOUNT_DRIVER = `homey:app:${CLOUD_APP}:account`;

const DRIVER_JS = `'use strict';
const Homey = require('homey');

module.exports = class AccountDriver extends Homey.Driver {
  async onPair(session) {
    let username = '';
    session.setHandler('login', async (data) => {
      username = data.username;
      this.log('login attempt', data.username);
      return data.password === 'secret';
    });
    session.setHandler('showView', async (viewId) => {
      if (viewId === 'choose') await session.emit('hello', { user: username });
    });
    session.setHandler('list_lamps', async () => {
      return [{ name: username + "'s lamp", data: { id: 'cloud-' + username }, store: { token: 'from-the-cloud' } }];
    });
  }

  async onRepair(session, device) {
    session.setHandler('login', async (data) => {
      if (data.password !== 'secret') return false;
      await device.setStoreValue('token', 'renewed-for-' + data.username);
      this.log('repaired', device.getName(), device.getStoreValue('token'));
      return true;
    });
  }
};
`;

const CHOOSE_HTML = `<!doctype html>
<html>
<head><meta charset="utf-8"></head>
<body>
  <p>Signed in as <b id="who">…</b></p>
  <div id="lamps"></div>
  <script>
    Homey.setTitle('Pick your lamp');
    Homey.on('hello', function (data) {
      document.getElementById('who').textContent = data.user;
    });
    Homey.emit('list_lamps').then(function (lamps) {
      lamps.forEach(function (lamp) {
        var button = document.createElement('button');
        button.textContent = lamp.name;
        button.addEventListener('click', function () {
          Homey.createDevice(lamp).then(function () { return Homey.done(); }).catch(function (err) { Homey.alert(err.message); });
        });
        document.getElementById('lamps').appendChild(button);
      });
    });
  </script>
</body>
</html>
`;

export async function writeCloudApp(appsDir: string): Promise<void> {
  await writeHomeyApp(appsDir, CLOUD_APP, {
    json: {
      drivers: [
        {
          id: 'account',
          name: { en: 'Cloud lamp' },
          class: 'light',
          capabilities: ['onoff'],
          platforms: ['local'],
          connectivity: 'cloud',
          pair: [
            { id: 'login_credentials', template: 'login_credentials', navigation: { next: 'choose' } },
            { id: 'choose', navigation: { prev: 'login_credentials' } },
          ],
          repair: [{ id: 'login_credentials', template: 'login_credentials' }],
        },
      ],
    },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      'drivers/account/driver.js': DRIVER_JS,
      'drivers/account/device.js':
        "const Homey = require('homey');\nmodule.exports = class extends Homey.Device { async onInit() { this.registerCapabilityListener('onoff', async () => {}); } };\n",
      'drivers/account/pair/choose.html': CHOOSE_HTML,
    },
  });
}

/** The pairing as a script does it through the Web API: log in, ask for the lamps, add the first. */
export async function pairHeadless(hub: RunningHub, password: string): Promise<{ login: unknown; added: { status: number; body: { name: string } } | null }> {
  const session = await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', { body: { type: 'pair', driverId: ACCOUNT_DRIVER } });
  const emit = (event: string, data?: unknown) => hub.call('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, { body: { event, data } });
  const login = (await emit('login', { username: 'bob', password })).body;
  let added = null;
  if (login === true) {
    const lamps = (await emit('list_lamps')).body as unknown[];
    added = await hub.call<{ name: string }>('POST', `/api/manager/drivers/pairsession/${session.body.id}/device`, { body: lamps[0] });
  }
  await hub.call('DELETE', `/api/manager/drivers/pairsession/${session.body.id}`);
  return { login, added };
}
