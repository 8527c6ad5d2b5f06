/**
 * The managers of Homey's SDK that hearth cannot back (radios, the LED ring, devices, the cloud):
 * each exists, so `this.homey.zwave` is there as on Homey, and each method fails with a sentence
 * naming what hearth lacks. Methods Homey declares async reject; the others throw.
 */
import type { EventEmitter } from 'node:events';
import { notAvailable } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';

export type Kind = 'sync' | 'async';

/** The method names a manager class declares (beyond what every EventEmitter has). */
export type MethodsOf<M> = Exclude<{ [K in keyof M]: M[K] extends (...args: never[]) => unknown ? K : never }[keyof M], keyof EventEmitter | 'log' | 'error'>;

/**
 * A manager named `name` (its `ID` is Homey's, `id`) whose every method fails with `why`, but those
 * hearth has (`working`). `M` is Homey's declaration of the manager: the type checker makes
 * `methods` list exactly the methods it declares, sync or async.
 */
export function unavailableManager<M>(name: string, id: string, why: string, methods: Readonly<Record<MethodsOf<M>, Kind>>, working: Partial<M> = {}): M {
  // A class of its own, so a line the manager logs names it.
  const Named = class extends Manager {
    static ID = id;
  };
  Object.defineProperty(Named, 'name', { value: name });
  const manager = new Named();
  for (const [method, kind] of Object.entries<Kind>(methods)) {
    const fail = (): never => {
      throw notAvailable(`${name}.${method}`, why);
    };
    const own = (working as Record<string, unknown>)[method];
    Object.defineProperty(manager, method, {
      value: own ?? (kind === 'async' ? () => Promise.reject(notAvailable(`${name}.${method}`, why)) : fail),
      enumerable: false,
    });
  }
  return manager as M;
}

/**
 * A class of Homey's SDK that only hardware or services hearth lacks give out (a BLE peripheral,
 * a Z-Wave node, a webhook): exported so an app that names it (`extends Homey.Signal433`,
 * `instanceof Homey.ZwaveNode`) loads; making one throws `why`, as the manager method that would
 * have given it does.
 */
export function unavailableClass(name: string, why: string): abstract new (...args: never[]) => object {
  const Named = class {
    constructor() {
      throw notAvailable(name, why);
    }
  };
  Object.defineProperty(Named, 'name', { value: name });
  return Named;
}
