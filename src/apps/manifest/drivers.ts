/**
 * The drivers an app declares in app.json (Homey's `drivers` array) and its own capabilities
 * (app.json `capabilities`), read the way Homey's docs describe them. A driver is lenient where
 * Homey's tools are (unknown keys stay in the raw manifest the app reads); what the hub acts on
 * (its id, class, capabilities, settings, pairing views, discovery) is checked here.
 *
 * Radios: a driver that needs Zigbee, Z-Wave, 433/868 MHz, infrared, Bluetooth or Matter cannot
 * pair on hearth; `radioOf` names what it needs.
 */

import { z } from 'zod';
import { nullRecord, safeRecord } from '../../core/null-prototype.js';
import { transient } from '../../core/transient.js';
import { type Capability, type CapabilityUi, english } from '../../home/capability.js';

export { radioOf } from '../wire/radios.cjs';

const LOCAL_ID = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * A driver's id, or a view of its pairing: any text Homey's validator takes (real apps have
 * spaces in them), that can name a folder of the app (`drivers/<id>/`, `pair/<view>.html`): no
 * slash, backslash or control character, not `.` or `..`. Paths and URLs encode it.
 */
export const FOLDER_ID = /^(?!\.{1,2}$)[^\p{Cc}/\\]{1,128}$/u;
const FOLDER_ID_RULE = 'must be 1-128 characters without /, \\ or control characters';
/**
 * A capability id, or a sub-capability `measure_temperature.inside`. Apps' own ids have capitals
 * and hyphens too (`reader_touch-pass_enabled`, in a real app): letters, digits, _ and -.
 */
export const CAPABILITY_ID = /^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64})?$/;
const Text = transient(() => z.union([z.string(), safeRecord(z.string(), z.string())]));

/** One view of a pairing (or repair) sequence: a system template or the app's own html. */
const PairView = transient(() =>
  z.looseObject({
    id: z.string().regex(FOLDER_ID, FOLDER_ID_RULE),
    template: z.string().max(64).optional(),
    navigation: z.looseObject({ prev: z.string().optional(), next: z.string().optional() }).optional(),
    options: z.looseObject({}).optional(),
  }),
);

/** A device setting as Homey writes it: flat, or a group with `children`. */
export interface DeviceSettingDef {
  id: string;
  type: string;
  label: string | Record<string, string>;
  default: unknown;
  min?: number;
  max?: number;
  values?: Array<{ id: string; label: unknown }>;
}

const SettingEntry = transient(() =>
  z.looseObject({
    id: z.string().regex(LOCAL_ID).optional(),
    type: z.string().max(32),
    label: Text().optional(),
    title: Text().optional(),
    value: z.unknown().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    /** Where Homey's docs put a number setting's bounds (`attr: {min, max, step}`). */
    attr: z.looseObject({ min: z.number().optional(), max: z.number().optional() }).optional(),
    values: z.array(z.looseObject({ id: z.string() })).optional(),
    children: z.array(z.unknown()).optional(),
  }),
);

/** Device settings flattened out of their groups; labels (`label` or `type: label`) are not settings. */
function flattenSettings(list: unknown[], out: DeviceSettingDef[] = [], depth = 0): DeviceSettingDef[] {
  for (const item of list) {
    const s = SettingEntry().safeParse(item);
    if (!s.success) continue;
    if (s.data.type === 'group') {
      if (depth < 3) flattenSettings(s.data.children ?? [], out, depth + 1);
      continue;
    }
    if (!s.data.id || s.data.type === 'label') continue;
    const min = s.data.attr?.min ?? s.data.min;
    const max = s.data.attr?.max ?? s.data.max;
    out.push({
      id: s.data.id,
      type: s.data.type,
      label: s.data.label ?? s.data.title ?? s.data.id,
      default: s.data.value ?? null,
      ...(min !== undefined ? { min } : {}),
      ...(max !== undefined ? { max } : {}),
      ...(s.data.values ? { values: s.data.values.map((v) => ({ id: v.id, label: v.label ?? v.title ?? v.id })) } : {}),
    });
  }
  return out;
}

export const DriverDefinition = transient(() =>
  z
    .looseObject({
      id: z.string().regex(FOLDER_ID, FOLDER_ID_RULE),
      name: Text().optional(),
      class: z.string().max(64).default('other'),
      capabilities: z.array(z.string().regex(CAPABILITY_ID, 'must be a capability id such as onoff or measure_temperature.inside')).default([]),
      capabilitiesOptions: safeRecord(z.string(), z.looseObject({})).default(() => nullRecord<Record<string, unknown>>()),
      settings: z.array(z.unknown()).default([]),
      pair: z.array(PairView()).optional(),
      repair: z.array(PairView()).optional(),
      discovery: z.string().max(128).optional(),
      /** Homey writes one kind as a string (`"cloud"`) or several as a list. */
      connectivity: z
        .union([z.string(), z.array(z.string())])
        .transform((c) => (typeof c === 'string' ? [c] : c))
        .optional(),
      platforms: z.array(z.string()).optional(),
      energy: z.looseObject({}).optional(),
      images: z.looseObject({}).optional(),
      /** Decoration: a list (some apps write one) gives its first path; anything else is no icon, never a refused app. */
      icon: z
        .union([z.string(), z.array(z.unknown())])
        .transform((i) => (typeof i === 'string' ? i : i.find((x): x is string => typeof x === 'string')))
        .optional()
        .catch(undefined),
      deprecated: z.boolean().optional(),
    })
    .transform((d) => ({ ...d, deviceSettings: flattenSettings(d.settings) })),
);
export type DriverDefinition = z.output<ReturnType<typeof DriverDefinition>>;

export const DriverList = transient(() =>
  z.array(DriverDefinition()).superRefine((drivers, ctx) => {
    const seen = new Set<string>();
    for (const [i, d] of drivers.entries()) {
      if (seen.has(d.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `driver '${d.id}' is declared twice` });
      seen.add(d.id);
    }
  }),
);

const UI_KINDS = ['toggle', 'slider', 'sensor', 'thermostat', 'media', 'color', 'battery', 'picker', 'ternary', 'button'] as const;

/** An app's own capability as app.json (or `.homeycompose/capabilities/<id>.json`) writes it. */
const CustomCapability = transient(() =>
  z.looseObject({
    type: z.enum(['boolean', 'number', 'string', 'enum']),
    title: Text(),
    getable: z.boolean().default(true),
    setable: z.boolean().default(false),
    units: Text().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().positive().optional(),
    decimals: z.number().int().min(0).max(10).optional(),
    values: z.array(z.looseObject({ id: z.string().min(1).max(64), title: Text().optional() })).optional(),
    uiComponent: z.string().nullable().optional(),
    insights: z.boolean().default(false),
  }),
);

export const CustomCapabilities = transient(() =>
  safeRecord(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -'), CustomCapability()).transform((caps) => {
    const out = nullRecord<Capability>();
    for (const [id, c] of Object.entries(caps)) {
      const ui = (UI_KINDS as readonly string[]).includes(c.uiComponent ?? '') ? (c.uiComponent as CapabilityUi) : null;
      out[id] = {
        type: c.type,
        title: english(c.title) ?? id,
        getable: c.getable,
        setable: c.setable,
        units: english(c.units),
        min: c.min ?? null,
        max: c.max ?? null,
        step: c.step ?? null,
        decimals: c.decimals ?? null,
        values: c.values ? c.values.map((v) => ({ id: v.id, title: english(v.title) ?? v.id })) : null,
        ui,
        insights: c.insights,
      };
    }
    return out;
  }),
);

const Condition = transient(() =>
  z.looseObject({
    field: z.string().min(1).max(128),
    match: z.looseObject({ type: z.enum(['string', 'regex']), value: z.string().max(512) }),
  }),
);

const Conditions = transient(() => z.array(z.array(Condition()).max(20)).max(20).optional());
/** Which field is a result's id, as a template: `{{txt.id}}`, `{{headers.usn}}`; default per kind. */
const IdTemplate = transient(() => z.string().max(256).optional());

/** An mDNS-SD discovery strategy (app.json `discovery.<id>`): a service name and protocol. */
export const MdnsStrategy = transient(() =>
  z.looseObject({
    type: z.literal('mdns-sd'),
    'mdns-sd': z.looseObject({ name: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/, 'must be a service name such as hue'), protocol: z.enum(['tcp', 'udp']) }),
    id: IdTemplate(),
    /** Groups of conditions: a result counts when every condition of one group holds. */
    conditions: Conditions(),
  }),
);
export type MdnsStrategy = z.output<ReturnType<typeof MdnsStrategy>>;

/** An SSDP strategy: the search target of an M-SEARCH (`ssdp:all`, a `urn:...`, `upnp:rootdevice`). */
export const SsdpStrategy = transient(() =>
  z.looseObject({
    type: z.literal('ssdp'),
    ssdp: z.looseObject({
      search: z.string().regex(/^[\x21-\x7e]{1,256}$/, 'must be an SSDP search target such as urn:schemas-upnp-org:device:MediaRenderer:1'),
    }),
    id: IdTemplate(),
    conditions: Conditions(),
  }),
);
export type SsdpStrategy = z.output<ReturnType<typeof SsdpStrategy>>;

/** A MAC strategy: the manufacturers' first three bytes of a MAC address (each a list of three numbers 0-255). */
export const MacStrategy = transient(() =>
  z.looseObject({
    type: z.literal('mac'),
    mac: z.looseObject({
      manufacturer: z
        .array(z.tuple([z.number().int().min(0).max(255), z.number().int().min(0).max(255), z.number().int().min(0).max(255)]))
        .min(1)
        .max(64),
    }),
  }),
);
export type MacStrategy = z.output<ReturnType<typeof MacStrategy>>;

export const DiscoveryStrategy = transient(() => z.discriminatedUnion('type', [MdnsStrategy(), SsdpStrategy(), MacStrategy()]));
export type DiscoveryStrategy = z.output<ReturnType<typeof DiscoveryStrategy>>;
const KINDS = ['mdns-sd', 'ssdp', 'mac'];

/**
 * The discovery strategies of app.json: each checked, and a sentence for each that hearth does
 * not run (another kind, or one it cannot read) — never a reason to refuse the app.
 */
export function readDiscovery(raw: unknown): { strategies: Record<string, DiscoveryStrategy>; unrun: string[] } {
  const strategies = nullRecord<DiscoveryStrategy>();
  const unrun: string[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { strategies, unrun };
  for (const [id, value] of Object.entries(raw)) {
    const kind = (value as { type?: unknown } | null)?.type;
    if (typeof kind !== 'string' || !KINDS.includes(kind)) {
      unrun.push(`discovery strategy ${id} (${typeof kind === 'string' ? kind : 'no type'}): hearth runs mdns-sd, ssdp and mac discovery`);
      continue;
    }
    const parsed = DiscoveryStrategy().safeParse(value);
    if (parsed.success && LOCAL_ID.test(id)) strategies[id] = parsed.data;
    else
      unrun.push(
        `discovery strategy ${id}: ${parsed.success ? 'its id must be 1-64 letters, digits, _ or -' : (parsed.error.issues[0]?.message ?? 'unreadable')}`,
      );
  }
  return { strategies, unrun };
}
