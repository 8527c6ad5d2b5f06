/** `this.homey.clock`: the hub's time zone (its --time-zone, else the system's). */
import type { HomeyContext } from '../context.cjs';
import { Manager } from '../simple-class.cjs';

export class ManagerClock extends Manager {
  static ID = 'clock';

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  getTimezone(): string {
    return this.ctx.state.timezone;
  }
}
