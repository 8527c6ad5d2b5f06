/**
 * --check-answers for events: every event on the bus is held to its manager's contract (its
 * name declared, its arguments, as a client reads them, matching their schemas). A mismatch is
 * an error in the log naming the event and the field; the test hubs fail a test file on one.
 */
import type { Logger } from 'pino';
import type { z } from 'zod';
import { contractEvents, type EventBus, type EventContract } from './events.js';
import type { Manager } from './managers.js';
import { describeIssues } from './zod-issues.js';

/** The sentence of an event that breaks its contract, or null. */
export function eventProblem(contract: EventContract, event: string, args: readonly unknown[]): string | null {
  const schemas = contract[event];
  if (!schemas) return `'${event}' is not in the manager's event contract`;
  if (args.length !== schemas.length) return `'${event}' carries ${args.length} arguments; its contract has ${schemas.length}`;
  const wire = JSON.parse(JSON.stringify(args)) as unknown[];
  for (const [i, schema] of schemas.entries()) {
    const parsed = (schema as z.ZodType).safeParse(wire[i]);
    if (!parsed.success) return `'${event}' argument ${i}: ${describeIssues(parsed.error)}`;
  }
  return null;
}

/** Checks every event published on `bus` against its manager's contract; returns the unsubscribe. */
export function checkEvents(bus: EventBus, managers: readonly Manager[], log: Logger): () => void {
  const contracts = new Map(managers.map((m) => [m.name as string, contractEvents(m.contract)]));
  return bus.subscribe((e) => {
    const problem = eventProblem(contracts.get(e.manager) ?? {}, e.event, e.args);
    if (problem) log.error({ manager: e.manager, event: e.event, problem }, 'an event does not match its contract');
  });
}
