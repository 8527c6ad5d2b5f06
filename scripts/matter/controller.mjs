// matter.js's own controller, bare, for the bench's baseline: commissions the device whose
// pairing code it is given, then turns its light (endpoint 1) on or off for each line `on` or
// `off` on stdin. Prints one JSON line {"ready": true} once commissioned and connected.
//
//   node scripts/matter/controller.mjs '{"storage": "/tmp/ctl", "code": "34970112332"}'
//
// Settings come as one JSON argument (matter.js takes `--flag` arguments as its own settings).
import { createInterface } from 'node:readline';
import { ControllerBehavior, Environment, Logger, Seconds, ServerNode } from '@matter/main';
import { OnOffClient } from '@matter/main/behaviors';

const config = JSON.parse(process.argv[2] ?? '{}');
Environment.default.vars.set('storage.path', config.storage ?? '/tmp/hearth-matter-controller');
Logger.level = 'warn';
const node = await ServerNode.create(ServerNode.RootEndpoint.with(ControllerBehavior), {
  id: 'baseline',
  commissioning: { enabled: false },
  network: { port: 0 },
  controller: { adminFabricLabel: 'baseline' },
});
await node.start();
const peer = await node.peers.commission({ pairingCode: config.code, timeout: Seconds(60) });
const light = peer.endpoints.for(1);
console.log(JSON.stringify({ ready: true }));
createInterface({ input: process.stdin }).on('line', (line) => {
  const on = line.trim() === 'on';
  (on ? light.commandsOf(OnOffClient).on() : light.commandsOf(OnOffClient).off()).catch((e) => console.error(e));
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    node.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
