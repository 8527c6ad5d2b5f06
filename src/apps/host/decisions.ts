/**
 * What the owner decides of an installed app: enable or disable it, restart it, let it update
 * itself, give it the network. A person's decision ends what the hub decided on its own (a
 * disable after repeated hub deaths, a crash backoff).
 */
import { HearthError } from '../../core/errors.js';
import type { AppRecord } from './app-record.js';
import type { App } from './app-view.js';
import type { AppSupervisor } from './supervisor.js';

/** The runtime as the owner's decisions see it. */
export interface DecisionsHost {
  supervisor(id: string): AppSupervisor;
  record(id: string): AppRecord;
  /** Changes app `id`'s record (the draft holds it alone). */
  update(id: string, change: (apps: Record<string, AppRecord>) => void): Promise<void>;
  /** Reads the app's folder again. */
  reread(id: string): Promise<void>;
  /** Why the app cannot start (a broken folder, or it needs what hearth has not), or null. */
  unstartable(id: string): string | null;
  app(id: string): App;
  /** Reports a change of the App object (app.update). */
  announce(app: App): void;
}

export class OwnerDecisions {
  constructor(private readonly host: DecisionsHost) {}

  async setEnabled(id: string, enabled: boolean): Promise<App> {
    const supervisor = this.host.supervisor(id);
    await this.host.update(id, (d) => {
      d[id]!.enabled = enabled;
      d[id]!.disabledReason = null;
      d[id]!.hubDeaths = 0;
      if (enabled) d[id]!.crashes = [];
    });
    if (!enabled) await supervisor.stop();
    else {
      // Re-read the folder: enabling is how a person says "I fixed it, try again".
      await this.host.reread(id);
      if (!this.host.unstartable(id)) await supervisor.restart();
    }
    return this.announced(id);
  }

  /**
   * Restarts the app from its folder as it is now, as `homey app run` does: a fixed app.json is
   * what starts, and a broken one is refused with its error as the file is now (not the one it
   * had when the hub first read it).
   */
  async restart(id: string): Promise<App> {
    const supervisor = this.host.supervisor(id);
    if (!this.host.record(id).enabled) throw new HearthError('conflict', `app '${id}' is disabled; enable it instead`);
    await this.host.reread(id);
    const why = this.host.unstartable(id);
    if (why) {
      this.announced(id);
      throw new HearthError('conflict', `app '${id}' cannot start: ${why} (its folder as it is now)`);
    }
    await this.host.update(id, (d) => {
      d[id]!.crashes = [];
    });
    await supervisor.restart();
    return this.host.app(id);
  }

  /**
   * Sets automatic updates and network access. A running app whose network access changed is
   * restarted: its namespaces are made when it starts.
   */
  async configure(id: string, patch: { autoupdate?: boolean; network?: boolean }): Promise<App> {
    const supervisor = this.host.supervisor(id);
    const hadNetwork = this.host.app(id).network;
    await this.host.update(id, (d) => {
      if (patch.autoupdate !== undefined) d[id]!.autoupdate = patch.autoupdate;
      if (patch.network !== undefined) d[id]!.network = patch.network;
    });
    if (this.host.app(id).network !== hadNetwork && supervisor.state.state !== 'stopped') await supervisor.restart();
    return this.announced(id);
  }

  private announced(id: string): App {
    const app = this.host.app(id);
    this.host.announce(app);
    return app;
  }
}
