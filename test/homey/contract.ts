/**
 * hearth's Homey SDK checked against Homey's own declarations (the npm package
 * homey-apps-sdk-v3-types) by the type checker: `npm test` type-checks this file, so an
 * implementation that drifts from Homey's SDK (a missing manager or method, a wrong return type)
 * fails the build. Nothing here runs.
 */

import type AppDecl from 'homey-apps-sdk-v3-types/lib/App.js';
import type DeviceDecl from 'homey-apps-sdk-v3-types/lib/Device.js';
import type DriverDecl from 'homey-apps-sdk-v3-types/lib/Driver.js';
import type FlowCardTriggerDecl from 'homey-apps-sdk-v3-types/lib/FlowCardTrigger.js';
import type FlowTokenDecl from 'homey-apps-sdk-v3-types/lib/FlowToken.js';
import type HomeyDecl from 'homey-apps-sdk-v3-types/lib/Homey.js';
import type InsightsLogDecl from 'homey-apps-sdk-v3-types/lib/InsightsLog.js';
import type WidgetDecl from 'homey-apps-sdk-v3-types/lib/Widget.js';
import type { App, Device, Driver, FlowCardTrigger, FlowToken, Homey, InsightsLog, Widget } from '../../src/homey/index.cjs';

/** Compiles only when `Ours` can stand wherever Homey's `Declared` is expected. */
type Fits<Ours extends Declared, Declared> = Ours;

export type Contract = [
  Fits<Homey, HomeyDecl>,
  Fits<App, AppDecl>,
  Fits<Driver, DriverDecl>,
  Fits<Device, DeviceDecl>,
  Fits<InsightsLog, InsightsLogDecl>,
  Fits<Widget, WidgetDecl>,
  Fits<FlowCardTrigger, FlowCardTriggerDecl>,
  Fits<FlowToken, FlowTokenDecl>,
];
