'use strict';

// Routes only the hub calls (app.json declares none of them, so no HTTP path reaches them): its
// matter manager (Homey's Web API) asks here for the nodes, a ping and a removal, after checking
// the caller's scopes itself. A home that never paired a Matter device gets an empty list
// without matter.js being loaded.
const fs = require('node:fs');

async function controllerIfAny(homey) {
  if (!homey.app.starting && !fs.existsSync(homey.app.storage)) return null;
  return homey.app.controller();
}

async function byUuid(homey, uuid) {
  const controller = await controllerIfAny(homey);
  const peer = controller?.peers().find((p) => controller.summary(p).uuid === uuid);
  if (!peer) throw new Error(`Matter node '${uuid}' does not exist`);
  return { controller, peer };
}

module.exports = {
  async hubNodes({ homey }) {
    const controller = await controllerIfAny(homey);
    const out = {};
    for (const peer of controller?.peers() ?? []) {
      const s = controller.summary(peer);
      out[s.uuid] = { ...s, id: s.uuid, key: s.id };
    }
    return out;
  },
  async hubDeleteNode({ homey, params }) {
    const { controller, peer } = await byUuid(homey, params.id);
    await controller.remove(peer.id);
    return null;
  },
  async hubPingNode({ homey, params }) {
    const { controller, peer } = await byUuid(homey, params.id);
    return controller.pingById(peer.id);
  },
};
