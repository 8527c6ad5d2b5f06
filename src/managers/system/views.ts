/**
 * What the system manager answers, as zod schemas the web app takes its types from. Free of Node
 * imports, so the browser build can type-check against it.
 */
import { z } from 'zod';

export const SystemState = z.object({
  version: z.string(),
  /**
   * True while the hub was never configured: setup not finished or skipped, and none of
   * language, units or location ever set (a hub configured before the setup existed skips it).
   */
  firstRun: z.boolean(),
});
export type SystemState = z.infer<typeof SystemState>;
