/**
 * Homey.App: the class an app's main module exports (`module.exports = class MyApp extends
 * Homey.App { async onInit() {...} }`). The hub constructs it; the constructor takes no
 * arguments, so the Homey instance it belongs to is handed over through `constructing`.
 */
import type { Homey } from './homey.cjs';
import { SimpleClass } from './simple-class.cjs';

let pending: Homey | null = null;

/** Runs `make` (which calls `new AppClass()`) with `homey` as the instance the App takes. */
export function constructing<T>(homey: Homey, make: () => T): T {
  pending = homey;
  try {
    return make();
  } finally {
    pending = null;
  }
}

export class App extends SimpleClass {
  readonly homey: Homey;
  /** The app's app.json. */
  readonly manifest: Record<string, unknown>;
  readonly id: string;
  readonly sdk: number;

  constructor() {
    super();
    if (!pending) throw new Error('Homey.App is made by the hub: export your class (module.exports = MyApp) instead of creating it');
    this.homey = pending;
    this.manifest = pending.manifest;
    this.id = String(pending.manifest.id);
    this.sdk = 3;
  }

  /** Called once the app is loaded; the app does its work from here. */
  async onInit(): Promise<void> {}

  /** Called before the app is stopped (it then has 5 s). */
  async onUninit(): Promise<void> {}
}
