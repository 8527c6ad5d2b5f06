/** Debian's mosquitto for one test file (scripts/zigbee/broker.mjs), its config in a temp folder of its own. */
import { type Broker, startMosquitto as start } from '../../scripts/zigbee/broker.mjs';
import { tempDir } from './hub.js';

export type { Broker };
export const startMosquitto = async (): Promise<Broker> => start(await tempDir('hearth-mosquitto-'));
