/**
 * `require('homey')` / `import Homey from 'homey'` inside an app on hearth: hearth's
 * implementation of the Homey Apps SDK v3. The hub makes this module resolvable from every app
 * folder (see src/apps/host/sdk-link.ts). Driver and Device exist so apps that mention them load, but
 * an app with drivers does not start (hearth has no devices).
 */
import { App } from './app.cjs';
import { HomeyError, notAvailable } from './errors.cjs';
import { Homey } from './homey.cjs';
import { Widget } from './managers/dashboards.cjs';
import { FlowArgument, FlowCard, FlowCardAction, FlowCardCondition, FlowCardTrigger, FlowCardTriggerDevice, FlowToken } from './managers/flow.cjs';
import { InsightsLog } from './managers/insights.cjs';
import { Manager, SimpleClass } from './simple-class.cjs';

const NO_DEVICES = 'hearth has no devices, so apps run no drivers';

export class Driver extends SimpleClass {
  constructor() {
    super();
    throw notAvailable('Homey.Driver', NO_DEVICES);
  }
}

export class Device extends SimpleClass {
  constructor() {
    super();
    throw notAvailable('Homey.Device', NO_DEVICES);
  }
}

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
