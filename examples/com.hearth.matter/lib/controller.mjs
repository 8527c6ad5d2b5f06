// The Matter controller: a matter.js node with the controller behavior, its fabric and keys in
// a folder of the app's userdata (mode 0700: in the hub's backups with the app, restored with
// it). It commissions devices already on the IP network by their pairing code, keeps a
// subscription to each (matter.js reconnects by itself after a restart or an outage) and lets
// the devices read, hear and command their endpoints. Loaded only once the home has a Matter
// device or pairs one: matter.js costs ~140 MB, which a home without Matter should not pay.
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync, chmodSync } from 'node:fs';
import { ControllerBehavior, Environment, Logger, Seconds, ServerNode } from '@matter/main';
import { Read } from '@matter/main/protocol';
import { normalCode } from './code.js';
import { within } from './within.js';

/**
 * How long a commissioning may take, from the code to the device's operational session: under the
 * hub's 60 s for a pairing event, so the person gets the driver's sentence, not a time-out.
 */
const COMMISSION_TIMEOUT = Seconds(45);
/**
 * The longest a device may stay silent in its subscription: it must report at least this often,
 * so a device that went away is noticed within about this time (matter.js's default is an hour).
 */
const MAX_INTERVAL = Seconds(60);
/**
 * How often a device that cannot be reached is asked whether it is back. matter.js's own retries
 * back off to an hour, and a device that restarts does not always resume its subscription by
 * itself (seen with a device commissioned in the same run): a read opens a new session at once.
 */
const PING_MS = 15_000;
/** How long a read that checks a lapsed subscription may take before the device is taken as gone. */
const PING_TIMEOUT_MS = 10_000;

/**
 * Homey names a node by a UUID: one made of the controller's name for the peer and its node id
 * on the fabric (random at each commissioning), so a device paired again gets a new one.
 */
export function nodeUuid(peerId, nodeId) {
  const h = createHash('sha256').update(`${peerId}:${nodeId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The Device Library's device type ids of an endpoint. */
const typesOf = (ep) => (ep.stateOf('descriptor')?.deviceTypeList ?? []).map((t) => Number(t.deviceType));

/** A plain copy of an endpoint's state for the behaviors asked (matter.js hands out live proxies). */
function snapshot(ep, behaviors) {
  const out = {};
  for (const b of behaviors) {
    if (!(b in ep.behaviors.supported)) continue;
    const s = ep.stateOf(b);
    out[b] = Object.fromEntries(Object.keys(s).map((k) => [k, s[k]]));
  }
  return out;
}

export class Controller extends EventEmitter {
  /** @param {{storage: string, log: (...a: unknown[]) => void}} opts */
  constructor(opts) {
    super();
    this.setMaxListeners(0);
    this.opts = opts;
    this.node = null;
    /** Whether each device's subscription is alive now (matter.js says so as it changes). */
    this.active = new Map();
    /** The timer asking each unreachable device whether it is back (one per device). */
    this.pings = new Map();
    /** Each followed device's way to say it is reachable or not (its id -> told). */
    this.followed = new Map();
    /** Devices being read after matter.js said their subscription lapsed. */
    this.checking = new Set();
  }

  async start() {
    mkdirSync(this.opts.storage, { recursive: true, mode: 0o700 });
    chmodSync(this.opts.storage, 0o700);
    const env = Environment.default;
    // matter.js reads settings from the process's arguments, its MATTER_* variables and a
    // config.json in the storage root: set here, whatever those say.
    env.vars.set('storage.path', this.opts.storage);
    Logger.level = 'warn';
    this.node = await ServerNode.create(ServerNode.RootEndpoint.with(ControllerBehavior), {
      id: 'hearth',
      // A controller, not a device: no commissioning window of its own, any free port.
      commissioning: { enabled: false },
      network: { port: 0 },
      controller: { adminFabricLabel: 'hearth' },
    });
    await this.node.start();
    for (const peer of this.peers()) this.follow(peer);
  }

  startPinging(peer) {
    if (this.pings.has(peer.id)) return;
    let busy = false;
    const timer = setInterval(() => {
      if (busy || !this.node) return;
      busy = true;
      this.pingWithin(peer)
        .then(() => this.followed.get(peer.id)?.(true))
        .catch(() => undefined)
        .finally(() => {
          busy = false;
        });
    }, PING_MS);
    timer.unref?.();
    this.pings.set(peer.id, timer);
  }

  stopPinging(id) {
    clearInterval(this.pings.get(id));
    this.pings.delete(id);
  }

  /** Pings a device by its id: how long the read took, or why it failed. */
  async pingById(id) {
    const started = Date.now();
    try {
      await this.ping(this.peer(id));
      return { reachable: true, ms: Date.now() - started, error: null };
    } catch (err) {
      return { reachable: false, ms: null, error: String(err?.message ?? err) };
    }
  }

  /** Reads one attribute (the data model revision of the root endpoint): answers when the device does. */
  async ping(peer) {
    for await (const _chunk of peer.interaction.read(Read({ attributes: [{ endpointId: 0, clusterId: 0x28, attributeId: 0 }] })));
  }

  /** ping, failing after PING_TIMEOUT_MS (matter.js may try a gone device's session for longer). */
  pingWithin(peer) {
    return within(this.ping(peer), PING_TIMEOUT_MS);
  }

  async close() {
    for (const id of [...this.pings.keys()]) this.stopPinging(id);
    const node = this.node;
    this.node = null;
    if (node) await node.close();
  }

  /** The commissioned devices. */
  peers() {
    return [...(this.node?.peers ?? [])].filter((p) => p.lifecycle.isCommissioned);
  }

  peer(id) {
    const peer = this.peers().find((p) => p.id === id);
    if (!peer) throw new Error(`No Matter device ${id} on this hub (it was removed)`);
    return peer;
  }

  /** Hears a device come and go; sets how often it must report. */
  follow(peer) {
    if (this.followed.has(peer.id)) return;
    const told = (active) => {
      if (this.active.get(peer.id) === active) return;
      this.active.set(peer.id, active);
      this.emit('reachable', peer.id, active);
      if (active) this.stopPinging(peer.id);
      else this.startPinging(peer);
    };
    this.followed.set(peer.id, told);
    // matter.js says a subscription lapsed, or the peer offline, also while it subscribes again
    // (after a hub restart, seen here: a device that had just answered shown unreachable for a
    // ping's while): the device is taken as gone only when a read of it fails too.
    const lapsed = (why) => {
      if (this.active.get(peer.id) === false || this.checking.has(peer.id)) return;
      this.checking.add(peer.id);
      this.pingWithin(peer)
        .then(
          () => told(true),
          (err) => {
            this.opts.log(`${peer.id}: ${why}, and a read failed (${err.message}): cannot be reached`);
            told(false);
          },
        )
        .finally(() => this.checking.delete(peer.id));
    };
    peer.events.network.subscriptionStatusChanged.on((active) => (active ? told(true) : lapsed('its subscription lapsed')));
    // A report or keep-alive: the device is there. After an outage matter.js subscribes again
    // without always saying the subscription is active (a device restarted, seen here).
    peer.events.network.subscriptionAlive.on(() => told(true));
    peer.lifecycle.offline.on(() => lapsed('matter.js took it offline'));
    peer.lifecycle.decommissioned?.on?.(() => this.emit('removed', peer.id));
    const sub = peer.state.network.defaultSubscription;
    if (!sub || sub.maxIntervalCeiling !== MAX_INTERVAL) {
      peer.set({ network: { defaultSubscription: { ...(sub ?? {}), maxIntervalCeiling: MAX_INTERVAL } } }).catch((err) => this.opts.log('could not set the subscription interval', err.message));
    }
  }

  /**
   * A device that did not answer a command in time is taken as unreachable until it answers
   * again (a report, a keep-alive or the next ping): said at once, not when matter.js gives up.
   */
  unreachable(id) {
    this.followed.get(id)?.(false);
  }

  reachable(id) {
    const peer = this.peer(id);
    return this.active.get(id) ?? peer.lifecycle.isOnline;
  }

  /** Commissions the device whose code this is; resolves with its summary. */
  async commission(code) {
    if (!this.node) throw new Error('The Matter controller is not running');
    const pairingCode = normalCode(code);
    const peer = await this.node.peers.commission({ pairingCode, timeout: COMMISSION_TIMEOUT });
    this.follow(peer);
    return this.summary(peer);
  }

  async remove(id) {
    const peer = this.peer(id);
    // decommission() asks the device to forget this fabric; a device that cannot be reached is
    // forgotten here all the same (it keeps a stale fabric until it is reset).
    try {
      await peer.decommission();
    } catch (err) {
      this.opts.log(`${id} could not be told to leave (${err.message}); forgetting it here`);
      await peer.delete();
    }
    this.stopPinging(id);
    this.active.delete(id);
    this.followed.delete(id);
    this.emit('removed', id);
  }

  /** One device as Homey's Web API and the pairing list show it. */
  summary(peer) {
    const info = peer.stateOf('basicInformation') ?? {};
    const parts = (peer.stateOf('descriptor')?.partsList ?? []).map(Number);
    const nodeId = String(peer.peerAddress?.nodeId ?? '');
    return {
      id: peer.id,
      uuid: nodeUuid(peer.id, nodeId),
      nodeId,
      name: info.nodeLabel || info.productName || 'Matter device',
      vendorName: info.vendorName ?? null,
      productName: info.productName ?? null,
      vendorId: info.vendorId ?? null,
      productId: info.productId ?? null,
      serialNumber: info.serialNumber ?? null,
      available: this.reachable(peer.id),
      endpoints: parts
        .filter((n) => peer.endpoints.has(n))
        .map((n) => ({ number: n, deviceTypes: typesOf(peer.endpoints.for(n)) })),
    };
  }

  /** An endpoint of a device: its state for `behaviors`, its changes, its commands. */
  endpoint(id, number) {
    const peer = this.peer(id);
    if (!peer.endpoints.has(number)) throw new Error(`The Matter device ${id} has no endpoint ${number}`);
    const ep = peer.endpoints.for(number);
    return {
      deviceTypes: typesOf(ep),
      state: (behaviors) => snapshot(ep, behaviors),
      /** Calls `listener` on a change of any attribute of these behaviors; answers how to stop. */
      listen(behaviors, listener) {
        const offs = [];
        for (const b of behaviors) {
          const events = b in ep.behaviors.supported ? ep.events[b] : undefined;
          if (!events) continue;
          for (const attr of Object.keys(ep.stateOf(b))) {
            const changed = events[`${attr}$Changed`];
            if (!changed?.on) continue;
            changed.on(listener);
            offs.push(() => changed.off(listener));
          }
        }
        return () => offs.forEach((off) => off());
      },
      async invoke([behavior, command, fields]) {
        if (behavior === 'write') return ep.setStateOf(command, fields);
        const commands = ep.commandsOf(behavior);
        if (typeof commands[command] !== 'function') throw new Error(`The Matter device cannot ${command}`);
        return fields === undefined ? commands[command]() : commands[command](fields);
      },
    };
  }
}
