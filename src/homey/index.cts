/**
 * `require('homey')` / `import Homey from 'homey'` inside an app on hearth: hearth's
 * implementation of the Homey Apps SDK v3. The hub makes this module resolvable from every app
 * folder (see src/apps/host/sdk-link.ts).
 */
import { App } from './app.cjs';
import { currentApp } from './context.cjs';
import type { Device } from './device.cjs';
import type { Driver } from './driver.cjs';
import { HomeyError } from './errors.cjs';
import { Homey } from './homey.cjs';
import { Widget } from './managers/dashboards.cjs';
import { FlowArgument, FlowCard, FlowCardAction, FlowCardCondition, FlowCardTrigger, FlowCardTriggerDevice, FlowToken } from './managers/flow.cjs';
import { InsightsLog } from './managers/insights.cjs';
import { Manager, SimpleClass } from './simple-class.cjs';

export type { Device, Driver };
export {
  App,
  FlowArgument,
  FlowCard,
  FlowCardAction,
  FlowCardCondition,
  FlowCardTrigger,
  FlowCardTriggerDevice,
  FlowToken,
  Homey,
  HomeyError,
  InsightsLog,
  Manager,
  SimpleClass,
  Widget,
};

/**
 * The rest of the classes Homey's module declares are loaded when an app first reads them (a
 * driver app's `extends Homey.Device`, `instanceof Homey.DiscoveryResultMDNSSD`): most apps use
 * none, and every module an app loads costs it memory.
 */
const later = (name: string, load: () => unknown): void => {
  Object.defineProperty(exports, name, { enumerable: true, get: load });
};
const discovery = () => require('./managers/discovery.cjs') as typeof import('./managers/discovery.cjs');
later('Driver', () => (require('./driver.cjs') as typeof import('./driver.cjs')).Driver);
later('Device', () => (require('./device.cjs') as typeof import('./device.cjs')).Device);
later('DiscoveryStrategy', () => discovery().DiscoveryStrategy);
later('DiscoveryResult', () => discovery().DiscoveryResult);
later('DiscoveryResultMAC', () => discovery().DiscoveryResultMAC);
later('DiscoveryResultMDNSSD', () => discovery().DiscoveryResultMDNSSD);
later('DiscoveryResultSSDP', () => discovery().DiscoveryResultSSDP);
later('Image', () => (require('./managers/images.cjs') as typeof import('./managers/images.cjs')).Image);
later('CloudOAuth2Callback', () => (require('./managers/cloud.cjs') as typeof import('./managers/cloud.cjs')).CloudOAuth2Callback);
later('ApiApp', () => (require('./managers/api-app.cjs') as typeof import('./managers/api-app.cjs')).UnreachableApp);

// Classes only hardware or services hearth lacks give out: they exist, making one throws why.
const LACKING: Readonly<Record<string, string>> = {
  Api: 'hearth lets apps listen to no other endpoint',
  BleAdvertisement: 'hearth gives apps no Bluetooth',
  BleCharacteristic: 'hearth gives apps no Bluetooth',
  BleDescriptor: 'hearth gives apps no Bluetooth',
  BlePeripheral: 'hearth gives apps no Bluetooth',
  BleService: 'hearth gives apps no Bluetooth',
  CloudWebhook: 'hearth has no Athom cloud account',
  LedringAnimation: 'hearth has no LED ring',
  LedringAnimationSystem: 'hearth has no LED ring',
  LedringAnimationSystemProgress: 'hearth has no LED ring',
  Signal: 'hearth has no 433 MHz, 868 MHz or infrared radio',
  Signal433: 'hearth has no 433 MHz radio',
  Signal868: 'hearth has no 868 MHz radio',
  SignalInfrared: 'hearth has no infrared radio',
  ZigBeeNode: 'hearth has no Zigbee radio',
  ZwaveNode: 'hearth has no Z-Wave radio',
  ZwaveCommandClass: 'hearth has no Z-Wave radio',
};
for (const [name, why] of Object.entries(LACKING)) {
  let made: unknown;
  later(name, () => {
    made ??= (require('./managers/unavailable.cjs') as typeof import('./managers/unavailable.cjs')).unavailableClass(name, why);
    return made;
  });
}

// Homey's SDK declares these on the module (`require('homey').manifest.id` is read at load). An
// app's code loads this module after init, so they are the running app's; {} outside an app.
export const manifest: Record<string, unknown> = currentApp()?.manifest ?? {};
export const env: Record<string, unknown> = currentApp()?.env ?? {};

// TypeScript compiles `import Homey from 'homey'` to `__importDefault(require('homey')).default`,
// and __importDefault keeps a module marked __esModule (as this one is) as it is: its `default`
// must be the module itself. Not enumerable, so listing the module's exports shows no cycle.
Object.defineProperty(exports, 'default', { enumerable: false, value: exports });
