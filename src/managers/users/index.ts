/**
 * Users: the people of the home (core/people.ts keeps them; operations.ts answers for them). Each
 * change is an event on Homey's `users` channel; a person whose role changes or who is disabled
 * has their sockets closed at once (they connect again with their new rights, or cannot).
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { PeopleService, PersonChange } from '../../core/people.js';
import type { TokenService } from '../../core/tokens.js';
import type { ManagerContext } from '../context.js';
import type { Timeline } from '../notifications/service.js';
import type { LoginCodes } from '../tokens/login-codes.js';
import { usersContract } from './contract.js';
import { personView, usersOperations } from './operations.js';

export class UsersManager implements Manager {
  readonly name = usersContract.name;
  readonly contract = usersContract;
  readonly operations: readonly Operation[];
  private off: (() => void) | undefined;

  constructor(
    private readonly ctx: ManagerContext,
    private readonly people: PeopleService,
    private readonly tokens: TokenService,
    codes: LoginCodes,
    zoneExists: (id: string) => boolean,
    timeline: Timeline,
  ) {
    this.operations = usersOperations({
      hubId: ctx.hubId,
      people,
      tokens,
      codes,
      localAddress: () => ctx.localAddress?.() ?? null,
      zoneExists,
      notify: (text) => timeline.notify({ uri: 'homey:manager:users', id: 'users', name: 'People' }, text),
    });
  }

  private changed({ before, after }: PersonChange): void {
    const bus = this.ctx.bus;
    if (!after) {
      if (before) bus.publish('users', 'user.delete', { id: before.id });
      return;
    }
    bus.publish('users', before ? 'user.update' : 'user.create', personView(after));
    // New rights: their sockets end, and they connect again with the new ones (or cannot).
    if (before && (before.role !== after.role || before.enabled !== after.enabled || before.zones.join() !== after.zones.join()))
      this.tokens.closeSockets(after.id);
  }

  async start(): Promise<void> {
    this.off = this.people.onChange((c) => this.changed(c));
  }

  async stop(): Promise<void> {
    this.off?.();
  }
}
