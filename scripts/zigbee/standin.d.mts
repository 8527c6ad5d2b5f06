// Types of the zigbee2mqtt stand-in (standin.mjs) for the tests.
export interface StandInDevice {
  /** A model of test/fixtures/zigbee2mqtt/models.json. */
  readonly model: string;
  readonly name: string;
  readonly ieee: string;
  readonly mains?: boolean;
  /** The state it starts with (zigbee2mqtt knows none until the device reports). */
  readonly state?: Record<string, unknown>;
}
export declare const MODELS: () => Promise<Record<string, { model: string; vendor: string; description: string; zigbeeModel: string; exposes: unknown[] }>>;
export declare class Z2mStandIn {
  constructor(url: string, base?: string);
  readonly states: Map<string, Record<string, unknown>>;
  readonly received: Array<[string, unknown]>;
  onPublish: ((name: string, state: Record<string, unknown>) => void) | null;
  start(devices: readonly StandInDevice[]): Promise<void>;
  publishDevices(): Promise<void>;
  report(name: string, change: Record<string, unknown>): Promise<void>;
  availability(name: string, online: boolean): Promise<void>;
  bridgeState(online: boolean): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(name: string): Promise<void>;
  close(): Promise<void>;
}
