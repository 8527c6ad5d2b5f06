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

// Homey.Driver and Homey.Device are loaded when an app first reads them (a driver app's
// `extends Homey.Device`): most apps have none, and every module an app loads costs it memory.
Object.defineProperty(exports, 'Driver', { enumerable: true, get: () => (require('./driver.cjs') as typeof import('./driver.cjs')).Driver });
Object.defineProperty(exports, 'Device', { enumerable: true, get: () => (require('./device.cjs') as typeof import('./device.cjs')).Device });

// Homey's SDK declares these on the module (`require('homey').manifest.id` is read at load). An
// app's code loads this module after init, so they are the running app's; {} outside an app.
export const manifest: Record<string, unknown> = currentApp()?.manifest ?? {};
export const env: Record<string, unknown> = currentApp()?.env ?? {};

// TypeScript compiles `import Homey from 'homey'` to `__importDefault(require('homey')).default`,
// and __importDefault keeps a module marked __esModule (as this one is) as it is: its `default`
// must be the module itself. Not enumerable, so listing the module's exports shows no cycle.
Object.defineProperty(exports, 'default', { enumerable: false, value: exports });
