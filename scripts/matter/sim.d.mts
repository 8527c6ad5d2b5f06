// Types of the simulated Matter processes (sim.mjs) for the tests.
import type { Lan } from './lan.mjs';

export declare class MatterProcess {
  readonly lines: Array<Record<string, unknown>>;
  /** Starts it (again, on the same storage); resolves with its ready line. */
  start(): Promise<Record<string, unknown>>;
  next(ok: (msg: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  send(line: string): void;
  kill(signal?: string): Promise<void>;
}
export interface DeviceConfig {
  storage: string;
  port?: number;
  passcode?: number;
  discriminator?: number;
  label?: string;
  temperature?: number;
}
export declare function simDevice(lan: Lan, config: DeviceConfig): MatterProcess;
export declare function bareController(lan: Lan, config: { storage: string; code: string }): MatterProcess;
