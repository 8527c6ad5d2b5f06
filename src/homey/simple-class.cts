/**
 * Homey's SimpleClass: an EventEmitter with `log` and `error`, the base of App, Homey and every
 * manager. A line goes to the app's stdout or stderr, which the hub keeps in the app's log ring
 * (shown by its crash log), stamped with the time and the class that wrote it.
 */
import { EventEmitter } from 'node:events';
import { format } from 'node:util';

function write(stream: NodeJS.WriteStream, tag: string, who: object, args: unknown[]): void {
  stream.write(`${new Date().toISOString()} [${tag}] [${who.constructor.name}] ${format(...args)}\n`);
}

export class SimpleClass extends EventEmitter {
  constructor() {
    super();
    // Apps pass them unbound, as Homey's SDK lets them: `.catch(this.error)`, `setTimeout(this.log, ...)`.
    // Bound here to whatever `log`/`error` the instance has (an app's own override included).
    this.log = this.log.bind(this);
    this.error = this.error.bind(this);
  }

  /** Logs a line to stdout. */
  log(...args: unknown[]): void {
    write(process.stdout, 'log', this, args);
  }

  /** Logs a line to stderr. */
  error(...args: unknown[]): void {
    write(process.stderr, 'err', this, args);
  }
}

/** The base of every manager (`this.homey.settings`, ...). */
export class Manager extends SimpleClass {}
