// Types of the mosquitto helper (broker.mjs) for the tests.
export interface Broker {
  readonly url: string;
  /** Kills it (nothing retained survives) and waits until nothing listens. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}
export declare function startMosquitto(dir: string): Promise<Broker>;
