/**
 * The global tokens: those apps make (kept while the app is installed; an app makes them again
 * each time it starts, which replaces them) and one per logic variable. Apps' token values live
 * in memory only: an app sets them again when it runs.
 */

import { conflict, invalid, notFound } from '../../core/errors.js';
import { nullRecord } from '../../core/null-prototype.js';
import type { Capability } from '../../home/capability.js';
import type { HubBus } from '../bus.js';
import type { LogicService } from '../logic/service.js';
import type { FlowTokenView, TokenValue } from './contract.js';

export const LOGIC_URI = 'homey:manager:logic';
/** Tokens one app may make. */
const MAX_PER_APP = 500;

/** `<ownerUri>:<id>` split where the owner's uri (three parts: homey:app:<id>) ends. */
export function splitTokenId(full: string): { uri: string; id: string } | null {
  const parts = full.split(':');
  if (parts.length < 4) return null;
  return { uri: parts.slice(0, 3).join(':'), id: parts.slice(3).join(':') };
}

/** The devices' capability values as tokens (`homey:device:<id>` / capability): what the registry needs of the devices manager. */
export interface DeviceTokenSource {
  ids(): string[];
  has(id: string): boolean;
  name(id: string): string;
  capabilities(id: string): string[];
  facts(id: string, capabilityId: string): Capability | null;
  value(id: string, capabilityId: string): boolean | number | string | null;
}

/** A manager's own global tokens (the home's power): read when asked, never stored. */
export interface HubTokenSource {
  readonly ownerUri: `homey:manager:${string}`;
  readonly ownerName: string;
  tokens(): Array<{ id: string; type: FlowTokenView['type']; title: string; value: TokenValue }>;
}

export class FlowTokens {
  /** Apps' tokens by `<ownerUri>:<id>`. */
  private readonly apps = new Map<string, FlowTokenView>();
  private readonly hub = new Map<string, HubTokenSource>();
  private devices: DeviceTokenSource | null = null;

  constructor(
    private readonly bus: HubBus,
    private readonly logic: LogicService,
    private readonly appName: (appId: string) => string,
  ) {}

  private variableToken(v: { id: string; name: string; type: 'string' | 'number' | 'boolean'; value: TokenValue }): FlowTokenView {
    return { id: v.id, uri: LOGIC_URI, ownerUri: LOGIC_URI, ownerId: 'logic', ownerName: 'Logic', type: v.type, title: v.name, example: null, value: v.value };
  }

  /** A manager's tokens, listed and found with the others. */
  provide(source: HubTokenSource): void {
    this.hub.set(source.ownerUri, source);
  }

  private hubTokens(source: HubTokenSource): FlowTokenView[] {
    const ownerId = source.ownerUri.slice('homey:manager:'.length);
    return source.tokens().map((t) => ({ ...t, uri: source.ownerUri, ownerUri: source.ownerUri, ownerId, ownerName: source.ownerName, example: null }));
  }

  setDevices(devices: DeviceTokenSource): void {
    this.devices = devices;
  }

  /** A device's capability as a token: each one that can be read. */
  private deviceToken(deviceId: string, capabilityId: string): FlowTokenView | null {
    const d = this.devices;
    if (!d?.has(deviceId) || !d.capabilities(deviceId).includes(capabilityId)) return null;
    const facts = d.facts(deviceId, capabilityId);
    if (!facts?.getable) return null;
    const uri = `homey:device:${deviceId}`;
    const type = facts.type === 'boolean' ? 'boolean' : facts.type === 'number' ? 'number' : 'string';
    return {
      id: capabilityId,
      uri,
      ownerUri: uri,
      ownerId: deviceId,
      ownerName: d.name(deviceId),
      type,
      title: facts.title,
      example: null,
      value: d.value(deviceId, capabilityId),
    };
  }

  list(): Record<string, FlowTokenView> {
    const out = nullRecord<FlowTokenView>();
    for (const [key, t] of this.apps) out[key] = t;
    for (const v of Object.values(this.logic.list())) out[`${LOGIC_URI}:${v.id}`] = this.variableToken(v);
    for (const source of this.hub.values()) for (const t of this.hubTokens(source)) out[`${t.uri}:${t.id}`] = t;
    for (const deviceId of this.devices?.ids() ?? []) {
      for (const cap of this.devices?.capabilities(deviceId) ?? []) {
        const t = this.deviceToken(deviceId, cap);
        if (t) out[`${t.uri}:${cap}`] = t;
      }
    }
    return out;
  }

  /** A token by `<ownerUri>:<id>`, or null. */
  find(uri: string, id: string): FlowTokenView | null {
    if (uri === LOGIC_URI) return this.logic.has(id) ? this.variableToken(this.logic.get(id)) : null;
    if (uri.startsWith('homey:device:')) return this.deviceToken(uri.slice('homey:device:'.length), id);
    const source = this.hub.get(uri);
    if (source) return this.hubTokens(source).find((t) => t.id === id) ?? null;
    return this.apps.get(`${uri}:${id}`) ?? null;
  }

  get(full: string): FlowTokenView {
    const at = splitTokenId(full);
    const token = at && this.find(at.uri, at.id);
    if (!token) throw notFound(`flow token '${full}' does not exist`);
    return token;
  }

  create(appId: string, def: { id: string; type: FlowTokenView['type']; title: string; value: TokenValue }): void {
    const uri = `homey:app:${appId}`;
    const key = `${uri}:${def.id}`;
    const existed = this.apps.has(key);
    if (!existed && [...this.apps.values()].filter((t) => t.ownerUri === uri).length >= MAX_PER_APP) {
      throw conflict(`an app makes at most ${MAX_PER_APP} flow tokens`);
    }
    const token: FlowTokenView = {
      id: def.id,
      uri,
      ownerUri: uri,
      ownerId: appId,
      ownerName: this.appName(appId),
      type: def.type,
      title: def.title,
      example: null,
      value: def.value,
    };
    this.apps.set(key, token);
    this.bus.publish(
      'flowtoken',
      existed ? 'flowtoken.update' : 'flowtoken.create',
      ...(existed ? ([token, { newValues: {}, oldValues: {}, changedKeys: [] }] as const) : ([token] as const)),
    );
  }

  set(appId: string, id: string, value: TokenValue): void {
    const key = `homey:app:${appId}:${id}`;
    const before = this.apps.get(key);
    if (!before) throw notFound(`the app made no flow token '${id}' (createToken first)`);
    if (value !== null && before.type !== 'image' && typeof value !== before.type) {
      throw invalid(`token '${id}' is of type ${before.type}; it cannot hold ${JSON.stringify(value)}`);
    }
    const token = { ...before, value };
    this.apps.set(key, token);
    this.bus.publish('flowtoken', 'flowtoken.update', token, { newValues: { value }, oldValues: { value: before.value }, changedKeys: ['value'] });
  }

  unregister(appId: string, id: string): void {
    const key = `homey:app:${appId}:${id}`;
    const token = this.apps.get(key);
    if (!token) return;
    this.apps.delete(key);
    this.bus.publish('flowtoken', 'flowtoken.delete', token);
  }

  /** An uninstalled app's tokens go with it. */
  removeApp(appId: string): void {
    for (const t of [...this.apps.values()]) if (t.ownerUri === `homey:app:${appId}`) this.unregister(appId, t.id);
  }
}
