/**
 * Presence (Homey's presence manager): the operations (operations.ts) over the service
 * (service.ts), and each person's presence kept in insights: a boolean log of home/away and one
 * of asleep/awake per person, owned by the person (`homey:user:<id>`), gone with them.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import { userOwnerUri } from '../../core/owners.js';
import type { PeopleService } from '../../core/people.js';
import type { ManagerContext } from '../context.js';
import type { InsightsService } from '../insights/service.js';
import { presenceContract } from './contract.js';
import { presenceOperations } from './operations.js';
import { type PresenceChange, PresenceService } from './service.js';

const LOGS = {
  present: { title: (name: string) => `${name} is home`, titleTrue: 'Home', titleFalse: 'Away' },
  asleep: { title: (name: string) => `${name} is asleep`, titleTrue: 'Asleep', titleFalse: 'Awake' },
} as const;

export class PresenceManager implements Manager {
  readonly name = presenceContract.name;
  readonly contract = presenceContract;
  readonly operations: readonly Operation[];
  readonly service: PresenceService;
  private off: Array<() => void> = [];
  /** Each person's log as last made or titled (by owner and key), so a change is one entry, not a log rewrite too. */
  private readonly titled = new Map<string, { id: string; title: string }>();

  constructor(
    private readonly ctx: ManagerContext,
    people: PeopleService,
    private readonly insights: InsightsService,
  ) {
    this.service = new PresenceService(people);
    this.operations = presenceOperations(this.service);
  }

  /** Logs the change in the person's log (made, or retitled after a rename, as it goes). */
  private logged(change: PresenceChange): void {
    const { person, key } = change;
    if (change.before === person[key]) return;
    try {
      const spec = LOGS[key];
      const owner = userOwnerUri(person.id);
      const title = spec.title(person.name);
      let log = this.titled.get(`${owner}:${key}`);
      if (log?.title !== title) {
        const made = this.insights.createLog(owner, key, { title, type: 'boolean', titleTrue: spec.titleTrue, titleFalse: spec.titleFalse });
        log = { id: made.id, title };
        this.titled.set(`${owner}:${key}`, log);
      }
      this.insights.createEntry(log.id, person[key]);
    } catch (err) {
      // A log deleted through the insights API is made again at the next change.
      this.titled.delete(`${userOwnerUri(person.id)}:${key}`);
      this.ctx.log.warn({ err, person: person.id }, 'a presence change could not be logged in insights');
    }
  }

  async start(): Promise<void> {
    this.off.push(
      this.service.onChange((c) => this.logged(c)),
      // A person removed: their logs go with them.
      this.service.people.onChange(({ before, after }) => {
        if (!before || after) return;
        for (const key of Object.keys(LOGS)) this.titled.delete(`${userOwnerUri(before.id)}:${key}`);
        for (const log of this.insights.getLogsOf(userOwnerUri(before.id))) {
          try {
            this.insights.deleteLog(log.id);
          } catch {}
        }
      }),
    );
  }

  async stop(): Promise<void> {
    for (const f of this.off) f();
    this.off = [];
  }
}
