// The pictures of adding a Matter device (docs/devices.md), for scripts/screenshots.mjs: a hub
// with the Matter app in one network namespace and a simulated light and sensor in another
// (scripts/matter/lan.mjs; needs root), the pairing code typed in, then the device's parts listed.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, OWNER, sleep, startHub } from '../bench/lib.mjs';
import { lanMissing, makeLan } from '../matter/lan.mjs';
import { simDevice } from '../matter/sim.mjs';
import { LOOKS, signedInPage } from './looks.mjs';

const APP = 'com.hearth.matter';

/** Takes the pictures into `out` with `browser` (playwright's); says why not where it cannot. */
export async function matterPictures(root, browser, out) {
  const missing = lanMissing();
  if (missing) {
    console.log(`no pictures of adding a Matter device: ${missing}`);
    return [];
  }
  const work = await mkdtemp(join(tmpdir(), 'hearth-screenshots-matter-'));
  const lan = makeLan();
  const device = simDevice(lan, { storage: join(work, 'device'), label: 'Kitchen light' });
  let hub;
  try {
    const code = (await device.start()).manualPairingCode;
    await cp(join(root, 'examples', APP), join(work, 'apps', APP), { recursive: true });
    hub = await startHub(root, {
      appsDir: join(work, 'apps'),
      host: lan.hubAddress,
      wrap: (node, args) => ['ip', ['netns', 'exec', lan.hubNs, node, ...args]],
    });
    for (let i = 0; i < 120 && !(await api(hub, 'GET', '/api/manager/apps/app'))[APP]?.ready; i++) await sleep(250);
    await api(hub, 'PUT', '/api/manager/system/option/setupDone', { value: true });
    const taken = [];
    for (const look of LOOKS) {
      const { context, page } = await signedInPage(browser, look, `${hub.url}/#/devices`, OWNER);
      await page.getByTestId('add-device').click();
      await page.getByTestId('pair-driver').selectOption({ label: `Matter device (${APP})` });
      await page.getByTestId('pair-start').click();
      await page.getByTestId('pair-pincode').fill(code.replace(/^(\d{4})(\d{3})(\d{4})$/, '$1-$2-$3'));
      await sleep(300);
      const { suffix } = look;
      await page.screenshot({ path: join(out, `pair-matter-code-${suffix}`) });
      taken.push(`pair-matter-code-${suffix}`);
      // Only the first look pairs the device (a code commissions it once): the others take the
      // code's picture alone.
      if (taken.length === 1) {
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByTestId('pair-add').waitFor({ timeout: 60_000 });
        await sleep(300);
        await page.screenshot({ path: join(out, `pair-matter-list-${suffix}`) });
        taken.push(`pair-matter-list-${suffix}`);
      }
      await context.close();
    }
    return taken;
  } finally {
    await hub?.stop();
    await device.kill();
    lan.close();
    await rm(work, { recursive: true, force: true });
  }
}
