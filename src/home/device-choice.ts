/**
 * Which devices a widget may be given: Homey's widget manifest `devices` key (`type` "app" for
 * the widget's own app's devices, "global" for any; `singular`; `filter.class` and
 * `filter.capabilities`). One reading of the filter for the hub (which checks what a dashboard
 * stores) and the web app (which offers only devices that fit), so the two never disagree.
 *
 * Filters, as Homey writes them: `class` "socket|light" is either class; `capabilities`
 * "onoff,dim|light_mode" is onoff and dim, or light_mode (`,` binds tighter than `|`).
 */

/**
 * The hub's own widget: one device as its tile (quick action and a control per capability),
 * drawn by the web app itself. Not an app widget (getAppWidgets lists apps' widgets only); an
 * app id always holds a dot, so `hearth` can never be one and this id never collides.
 */
export const DEVICE_TILE = 'hearth:device';

export interface DeviceChoice {
  readonly type: 'app' | 'global';
  readonly singular: boolean;
  readonly filter?: { readonly class?: string | undefined; readonly capabilities?: string | undefined } | undefined;
}

/** What the choice looks at of a device. */
export interface ChoosableDevice {
  readonly name: string;
  /** The app the device belongs to (its driver's app). */
  readonly appId: string;
  readonly class: string;
  readonly virtualClass?: string | null | undefined;
  readonly capabilities: readonly string[];
}

const alternatives = (text: string): string[][] =>
  text
    .split('|')
    .map((alt) =>
      alt
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .filter((alt) => alt.length > 0);

/** Why `device` cannot be chosen for a widget of app `ownerAppId` asking `choice`; null if it can. */
export function choiceProblem(choice: DeviceChoice, ownerAppId: string, device: ChoosableDevice): string | null {
  if (choice.type === 'app' && device.appId !== ownerAppId) return `'${device.name}' is not a device of ${ownerAppId}, and this widget shows only its own`;
  const cls = choice.filter?.class;
  if (cls) {
    const classes = cls.split('|').map((c) => c.trim());
    const its = [device.class, device.virtualClass].filter((c): c is string => typeof c === 'string');
    if (!its.some((c) => classes.includes(c))) return `'${device.name}' is a ${device.virtualClass ?? device.class}; this widget shows ${classes.join(' or ')}`;
  }
  const caps = choice.filter?.capabilities;
  if (caps) {
    const alts = alternatives(caps);
    if (alts.length > 0 && !alts.some((all) => all.every((c) => device.capabilities.includes(c)))) {
      return `'${device.name}' lacks the capabilities this widget needs (${alts.map((a) => a.join(' and ')).join(', or ')})`;
    }
  }
  return null;
}
