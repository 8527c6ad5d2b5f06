// A simulated Matter device on matter.js (Apache-2.0), for the tests, the bench and the
// screenshots: an on/off light (endpoint 1) and a temperature sensor (endpoint 2), in
// commissioning mode until a controller pairs it. Run it in a network namespace of its own
// (mDNS does not work on a single loopback): test/helpers/netns.ts.
//
//   node scripts/matter/device.mjs '{"storage": "/tmp/dev", "port": 5540, "passcode": 20202021, "discriminator": 3840}'
//
// The settings come as one JSON argument: matter.js takes any `--flag` argument (and any MATTER_*
// variable) as a setting of its own. Prints one JSON line {"manualPairingCode", "qrPairingCode"},
// then a line {"onOff": value} whenever the light changes. Reads commands on stdin, one per line:
// `toggle` (someone pressed the lamp's own switch), `temperature <0.01 °C>`.
import { createInterface } from 'node:readline';
import { Endpoint, Environment, Logger, ServerNode, VendorId } from '@matter/main';
import { OnOffLightDevice } from '@matter/main/devices/on-off-light';
import { TemperatureSensorDevice } from '@matter/main/devices/temperature-sensor';

const config = JSON.parse(process.argv[2] ?? '{}');
Environment.default.vars.set('storage.path', config.storage ?? '/tmp/hearth-matter-device');
Logger.level = 'warn';

const server = await ServerNode.create({
  id: 'device',
  network: { port: config.port ?? 5540 },
  commissioning: { passcode: config.passcode ?? 20202021, discriminator: config.discriminator ?? 3840 },
  productDescription: { name: 'hearth test light' },
  basicInformation: {
    vendorId: VendorId(0xfff1),
    productId: 0x8000,
    vendorName: 'hearth',
    productName: 'Test light',
    nodeLabel: config.label ?? 'Test light',
    serialNumber: 'hearth-1',
  },
});
const light = await server.add(new Endpoint(OnOffLightDevice, { id: 'light' }));
const sensor = await server.add(new Endpoint(TemperatureSensorDevice, { id: 'sensor', temperatureMeasurement: { measuredValue: config.temperature ?? 2150 } }));
light.events.onOff.onOff$Changed.on((onOff) => console.log(JSON.stringify({ onOff })));
const { manualPairingCode, qrPairingCode } = server.state.commissioning.pairingCodes;
await server.start();
console.log(JSON.stringify({ manualPairingCode, qrPairingCode }));

createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, arg] = line.trim().split(/\s+/);
  if (command === 'toggle') light.set({ onOff: { onOff: !light.state.onOff.onOff } }).catch((e) => console.error(e));
  if (command === 'temperature') sensor.set({ temperatureMeasurement: { measuredValue: Number(arg) } }).catch((e) => console.error(e));
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
