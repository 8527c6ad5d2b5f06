/**
 * The system handlers: the ping monitors and Homey's clients ask without a token, the hub's name,
 * Homey's figures of the machine, and whether the hub still needs its first-run setup.
 */
import { implement, JsonBytes, type Operation } from '../../core/operation.js';
import type { OptionService } from '../../core/options.js';
import { HOMEY_VERSION, VERSION } from '../../version.js';
import { OPTION_SETUP_DONE, OPTION_SETUP_STEP, systemContract } from './contract.js';
import type { SystemFigures } from './figures.js';

export interface SystemSide {
  readonly options: OptionService;
  readonly hubId: string;
  readonly figures: SystemFigures;
  /** The hub's name: the owner's, else the machine's. */
  name(): string;
  setName(name: string): Promise<void>;
}

/** A hub no one set up: never finished, not begun, and none of what the setup asks is set. */
function firstRun(options: OptionService): boolean {
  const { name } = systemContract;
  if (options.get<boolean>(name, OPTION_SETUP_DONE)) return false;
  if (options.isSet(name, OPTION_SETUP_STEP)) return true;
  return !options.isSet('i18n', 'language') && !options.isSet('i18n', 'units') && !options.isSet('geolocation', 'location');
}

export function systemOperations(side: SystemSide): Operation[] {
  const { options, figures } = side;
  const { name } = systemContract;
  const pingBody = new TextEncoder().encode(JSON.stringify({ ok: true, version: VERSION }));
  return [
    ...options.register(name, systemContract.options),
    ...implement(systemContract.operations, {
      // Homey's headers too: Homey's client (homey-api's createLocalAPI) knows a Homey by them.
      ping: () => new JsonBytes<{ ok: true; version: string }>(pingBody, { 'x-homey-id': side.hubId, 'x-homey-version': HOMEY_VERSION }),
      getInfo: () => figures.info(),
      getSystemName: () => side.name(),
      setSystemName: async ({ body }) => {
        await side.setName(body.name);
        return body.name;
      },
      getMemoryInfo: () => figures.memory(),
      getStorageInfo: () => figures.storageInfo(),
      getSystemState: () => ({
        version: VERSION,
        firstRun: firstRun(options),
        setupStep: options.isSet(name, OPTION_SETUP_STEP) ? options.get<number>(name, OPTION_SETUP_STEP) : null,
      }),
    }),
  ];
}
