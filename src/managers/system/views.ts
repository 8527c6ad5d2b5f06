/**
 * What the system manager answers, as zod schemas the web app takes its types from. Free of Node
 * imports, so the browser build can type-check against it.
 */

import { z } from 'zod';
import { lazy } from '../../core/contract.js';

export const SystemState = lazy(() =>
  z.object({
    version: z.string(),
    /**
     * True while the setup is neither finished nor skipped and either it was begun (setupStep is
     * set: saving the language in step 1 does not end it) or the hub was never configured (none of
     * language, units or location ever set: a hub configured another way is not asked).
     */
    firstRun: z.boolean(),
    /** The step the setup was left at (0 language and units, 1 location, 2 first dashboard); null before it is begun. */
    setupStep: z.number().int().min(0).max(2).nullable(),
  }),
);
export type SystemState = z.infer<ReturnType<typeof SystemState>>;
