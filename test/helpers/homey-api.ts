/**
 * Homey's own Web API client (npm `homey-api`), typed as far as the tests use it. Installed on
 * first use outside the repository (scripts/homey-api.mjs says why).
 */
import { installHomeyApi } from '../../scripts/homey-api.mjs';
import { ROOT } from './hub.js';

export { HOMEY_API_VERSION } from '../../scripts/homey-api.mjs';

/** What the tests use of a homey-api client (V2 and V3 local alike). */
export interface HomeyApiClient {
  readonly dashboards: HomeyApiManager;
  readonly apps: HomeyApiManager;
  readonly insights: HomeyApiManager;
  readonly [manager: string]: unknown;
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  destroy(): void;
  isConnected(): boolean;
}

export interface HomeyApiManager {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  on(event: string, fn: (data: unknown) => void): void;
  [operation: string]: unknown;
}

/** A device as homey-api's devices manager hands it out, as far as the tests use it. */
export interface HomeyApiDevice {
  id: string;
  name: string;
  capabilitiesObj: Record<string, { value: unknown }>;
  setCapabilityValue(opts: { capabilityId: string; value: unknown }): Promise<void>;
  makeCapabilityInstance(
    capabilityId: string,
    listener: (value: unknown) => void,
  ): { setValue(value: unknown): Promise<void>; value: unknown; destroy(): void };
}

/** homey-api's devices manager, as far as the tests use it. */
export interface HomeyApiDevices {
  getDevices(): Promise<Record<string, HomeyApiDevice>>;
  getDevice(opts: { id: string }): Promise<HomeyApiDevice>;
  setCapabilityValue(opts: { deviceId: string; capabilityId: string; value: unknown }): Promise<unknown>;
}

/** A client's devices manager, typed. */
export const clientDevices = (client: HomeyApiClient): HomeyApiDevices => client.devices as unknown as HomeyApiDevices;

interface ClientProps {
  token: string;
  baseUrl: string;
  strategy: string[];
  properties: { id: string; softwareVersion: string };
  debug?: (...words: unknown[]) => void;
}

export interface HomeyApiModule {
  HomeyAPI: { createLocalAPI(opts: { address: string; token: string; debug?: (...words: unknown[]) => void }): Promise<HomeyApiClient> };
  HomeyAPIV2: new (props: ClientProps) => HomeyApiClient;
  HomeyAPIV3Local: new (props: ClientProps) => HomeyApiClient;
}

/** The folder whose node_modules/ holds homey-api and its dependencies (a test app copies it). */
export async function homeyApiModules(): Promise<string> {
  return `${(await installHomeyApi(ROOT)).dir}/node_modules`;
}

export async function loadHomeyApi(): Promise<HomeyApiModule> {
  return (await installHomeyApi(ROOT)).homeyApi() as HomeyApiModule;
}

/** A socket.io 2 client socket (the one homey-api brings), as far as the tests use it. */
export interface SocketIo2 {
  emit(event: string, ...args: unknown[]): void;
  on(event: string, fn: (...args: unknown[]) => void): void;
  once(event: string, fn: (...args: unknown[]) => void): void;
  close(): void;
}

/** homey-api's own socket.io client (version 2), for talking the protocol by hand. */
export async function loadSocketIo2(): Promise<(url: string, options: object) => SocketIo2> {
  return (await installHomeyApi(ROOT)).socketIo2() as (url: string, options: object) => SocketIo2;
}

/**
 * A client of either flavour for a hub, as Homey's users make one: createLocalAPI (V3 local), or
 * HomeyAPIV2 for a Homey Pro 2019 (told the hub's id, which it reads from X-Homey-ID).
 */
export async function homeyClient(homeyApi: HomeyApiModule, url: string, token: string, flavour: 'V3 local' | 'V2'): Promise<HomeyApiClient> {
  if (flavour === 'V3 local') return homeyApi.HomeyAPI.createLocalAPI({ address: url, token });
  const homeyId = (await fetch(`${url}/api/manager/system/ping`)).headers.get('x-homey-id') ?? '';
  return new homeyApi.HomeyAPIV2({ token, baseUrl: url, strategy: [], properties: { id: homeyId, softwareVersion: '12.3.0' } });
}
