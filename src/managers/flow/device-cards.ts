/**
 * The cards every device brings from its capabilities, made from hearth's capability table (and
 * the app's own capabilities): a boolean one is turned on and off, is on, and (when it can be
 * set) is turned on, off or toggled; a number, enum or text one changed (with its value as the
 * trigger's token) and, when it can be set, is set. `onoff` keeps Homey's own names (turned_on,
 * turned_off, on, off, toggle). Ids are Homey's: `homey:device:<deviceId>:<cardId>`; they run in
 * the hub, through the devices manager (a set goes to the device's app like any other).
 */
import type { Arg, CardKind, Token } from '../../apps/manifest/flow-cards.js';
import type { Capability } from '../../home/capability.js';
import { type HubCard, hubArg, hubCard, type SystemImpl } from './hub-card.js';

/** What the device cards need of the devices manager. */
export interface DeviceSide {
  has(id: string): boolean;
  name(id: string): string;
  capabilities(id: string): string[];
  facts(id: string, capabilityId: string): Capability | null;
  value(id: string, capabilityId: string): boolean | number | string | null;
  /** Sets a capability for the flow run `runId` (its cause, should the change fire a trigger). */
  set(id: string, capabilityId: string, value: boolean | number | string, runId: string): Promise<void>;
}

const ONOFF = { true: 'turned_on', false: 'turned_off', is: 'on', set: { true: 'on', false: 'off', toggle: 'toggle' } };

/** The ids of a capability's triggers, by the kind of change. */
export function triggerIds(capabilityId: string, facts: Capability): { true?: string; false?: string; changed?: string } {
  if (facts.type !== 'boolean') return { changed: `${capabilityId}_changed` };
  if (capabilityId === 'onoff') return { true: ONOFF.true, false: ONOFF.false };
  return { true: `${capabilityId}_true`, false: `${capabilityId}_false` };
}

const arg = hubArg;

export function deviceCards(deviceId: string, side: DeviceSide): HubCard[] {
  const owner = { uri: `homey:device:${deviceId}`, id: deviceId, name: side.name(deviceId) };
  // A card taking a value reads with it in place: "Set Brightness to [[value]]", "Mode is [[value]]".
  const card = (cardId: string, kind: CardKind, title: string, system: SystemImpl, args: Arg[] = [], tokens: Token[] = []): HubCard => {
    const titleFormatted = args.some((a) => a.name === 'value') ? `${title}${kind === 'action' ? ' to' : ''} [[value]]` : undefined;
    return hubCard(owner, { cardId, kind, title, args, tokens, ...(titleFormatted ? { titleFormatted } : {}) }, system);
  };
  const out: HubCard[] = [];
  for (const cap of side.capabilities(deviceId)) {
    const f = side.facts(deviceId, cap);
    if (!f) continue;
    const title = f.title;
    const ids = triggerIds(cap, f);
    const set = (value: boolean | number | string, runId: string) => side.set(deviceId, cap, value, runId);
    if (f.type === 'boolean') {
      const onoff = cap === 'onoff';
      out.push(card(ids.true!, 'trigger', onoff ? 'Turned on' : `${title} turned on`, {}));
      out.push(card(ids.false!, 'trigger', onoff ? 'Turned off' : `${title} turned off`, {}));
      if (f.getable)
        out.push(
          card(onoff ? ONOFF.is : cap, 'condition', onoff ? 'Is turned !{{on|off}}' : `${title} !{{is|is not}} on`, {
            run: () => side.value(deviceId, cap) === true,
          }),
        );
      if (f.setable) {
        out.push(card(onoff ? ONOFF.set.true : `${cap}_true`, 'action', onoff ? 'Turn on' : `Turn ${title} on`, { run: (_args, runId) => set(true, runId) }));
        out.push(
          card(onoff ? ONOFF.set.false : `${cap}_false`, 'action', onoff ? 'Turn off' : `Turn ${title} off`, { run: (_args, runId) => set(false, runId) }),
        );
        out.push(
          card(onoff ? ONOFF.set.toggle : `${cap}_toggle`, 'action', onoff ? 'Toggle on or off' : `Toggle ${title}`, {
            run: (_args, runId) => set(side.value(deviceId, cap) !== true, runId),
          }),
        );
      }
      continue;
    }
    const tokenType = f.type === 'number' ? 'number' : 'string';
    if (f.getable) out.push(card(ids.changed!, 'trigger', `${title} changed`, {}, [], [{ name: cap, type: tokenType, title, example: null }]));
    if (!f.setable) continue;
    if (f.type === 'number') {
      const value = arg('value', 'number', f.units ? `${title} (${f.units})` : title, { min: f.min, max: f.max, step: f.step });
      out.push(card(`${cap}_set`, 'action', `Set ${title}`, { run: (args, runId) => set(Number(args.value), runId) }, [value]));
    } else if (f.type === 'enum') {
      const value = arg('value', 'dropdown', title, { values: (f.values ?? []).map((v) => ({ id: v.id, label: v.title })) });
      out.push(card(`${cap}_set`, 'action', `Set ${title}`, { run: (args, runId) => set(String(args.value), runId) }, [value]));
      out.push(card(`${cap}_is`, 'condition', `${title} !{{is|is not}}`, { run: (args) => side.value(deviceId, cap) === args.value }, [{ ...value }]));
    } else {
      out.push(card(`${cap}_set`, 'action', `Set ${title}`, { run: (args, runId) => set(String(args.value), runId) }, [arg('value', 'text', title)]));
    }
  }
  return out;
}
