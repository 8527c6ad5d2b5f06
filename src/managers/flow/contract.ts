/**
 * The flow contract, at Homey's paths as Homey's client (`homey-api`, V2 and V3 local) calls
 * them: flows and their folders, the cards apps bring, running a card, starting a flow. Advanced
 * (canvas) flows are Homey's too but not hearth's: their operations answer 501 with a sentence.
 */
import { z } from 'zod';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';
import { safeRecord } from '../../core/null-prototype.js';
import { ActionInput, CardView, ConditionInput, FLOW_LIMITS, FlowCreate, FlowUpdate, FlowView, FolderView, RunView, TriggerInput } from './views.js';

const Id = lazy(() => z.object({ id: z.string().min(1).max(64) }));
/** A card by Homey's two path parts: its owner's uri and its id (whole, as V3 sends it, or its own, as V2 does). */
const CardPath = lazy(() => z.object({ uri: z.string().min(1).max(200), id: z.string().min(1).max(300) }));
const JsonObject = lazy(() => safeRecord(z.string(), z.unknown()));
const RunBody = lazy(() =>
  z.object({
    args: JsonObject().default(() => ({})),
    tokens: JsonObject().default(() => ({})),
    state: JsonObject().default(() => ({})),
    droptoken: z.string().max(300).optional(),
    duration: z.number().min(0).optional(),
  }),
);
const FolderName = lazy(() => z.string().trim().min(1, 'a folder needs a name').max(100));
const advanced = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, summary: string) =>
  op({ method, path, scope: 'service.flow.readonly', summary: `${summary}: advanced flows are not part of hearth (501)` } as const, () => ({
    params: z.object({}).loose(),
    // Never answered with success; the document says so where a success would be described.
    output: z.strictObject({}).describe('never: advanced flows answer 501'),
  }));

export const flowContract = defineContract({
  name: 'flow',
  eventScope: 'service.flow.readonly',
  events: lazy(() => ({
    ...resourceEvents('flow', FlowView()),
    ...resourceEvents('flowfolder', FolderView()),
    /** A run of a flow ended (its log's newest entry). */
    'flowrun.create': [RunView()],
  })),
  operations: {
    getState: stateOperation({
      summary: 'How many flows there are, enabled and broken',
      output: () => z.object({ flows: z.number().int(), enabled: z.number().int(), broken: z.number().int(), folders: z.number().int() }),
    }),
    getFlows: op({ method: 'GET', path: '/flow', scope: 'service.flow.readonly', summary: 'Every flow by id' }, () => ({
      output: z.record(z.string(), FlowView()),
    })),
    getFlow: op({ method: 'GET', path: '/flow/:id', scope: 'service.flow.readonly', summary: 'One flow' }, () => ({ params: Id(), output: FlowView() })),
    createFlow: op(
      {
        method: 'POST',
        path: '/flow',
        scope: 'service.flow',
        summary: 'Create a flow `{name, trigger, conditions, actions, folder?, enabled?}`; its cards and arguments are checked',
        bodyRoot: 'flow',
        status: 201,
      },
      () => ({
        body: FlowCreate(),
        output: FlowView(),
      }),
    ),
    updateFlow: op(
      {
        method: 'PUT',
        path: '/flow/:id',
        scope: 'service.flow',
        summary: 'Change a flow: its name, folder, enabled state or cards',
        bodyRoot: 'flow',
      },
      () => ({
        params: Id(),
        body: FlowUpdate(),
        output: FlowView(),
      }),
    ),
    deleteFlow: op({ method: 'DELETE', path: '/flow/:id', scope: 'service.flow', summary: 'Delete a flow', status: 204 }, () => ({ params: Id() })),
    triggerFlow: op(
      {
        method: 'POST',
        path: '/flow/:id/trigger',
        scope: 'service.flow.start',
        summary: 'Start a flow now, as if its trigger fired (its conditions still decide the branch); answers when the run ended',
      },
      () => ({
        params: Id(),
        body: z.object({}).loose().optional(),
        output: RunView(),
      }),
    ),
    testFlow: op(
      {
        method: 'POST',
        path: '/flow/test',
        scope: 'service.flow',
        summary:
          'Run a flow that is not saved `{flow: {trigger, conditions, actions}, tokens}` as if its trigger fired with those tokens; answers the run (kept in no log)',
      },
      () => ({
        body: z.object({
          flow: z.object({
            trigger: TriggerInput(),
            conditions: z.array(ConditionInput()).max(FLOW_LIMITS.conditions).default([]),
            actions: z.array(ActionInput()).max(FLOW_LIMITS.actions).default([]),
          }),
          tokens: safeRecord(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).default(() => ({})),
          sessionId: z.string().max(128).optional(),
        }),
        output: RunView(),
      }),
    ),
    getFlowLog: op(
      {
        method: 'GET',
        path: '/flow/:id/log',
        scope: 'service.flow.readonly',
        extension: true,
        summary: 'The latest runs of a flow, newest first, each card with what it answered or why it failed',
      },
      () => ({
        params: Id(),
        output: z.array(RunView()),
      }),
    ),
    getFlowLastRuns: op(
      {
        method: 'GET',
        path: '/lastrun',
        scope: 'service.flow.readonly',
        extension: true,
        summary: "Each flow's latest run since the hub started, by flow id (the flows list says when each ran and how)",
      },
      () => ({
        output: z.record(z.string(), RunView()),
      }),
    ),
    getFlowFolders: op(
      {
        method: 'GET',
        path: '/flowfolder',
        scope: 'service.flow.readonly',
        summary: 'Every flow folder by id',
      },
      () => ({
        output: z.record(z.string(), FolderView()),
      }),
    ),
    getFlowFolder: op({ method: 'GET', path: '/flowfolder/:id', scope: 'service.flow.readonly', summary: 'One flow folder' }, () => ({
      params: Id(),
      output: FolderView(),
    })),
    createFlowFolder: op(
      {
        method: 'POST',
        path: '/flowfolder',
        scope: 'service.flow',
        summary: 'Create a folder `{name, parent?}`',
        bodyRoot: 'flowfolder',
        status: 201,
      },
      () => ({
        body: z.object({ name: FolderName(), parent: z.string().min(1).max(64).nullable().optional() }),
        output: FolderView(),
      }),
    ),
    updateFlowFolder: op(
      {
        method: 'PUT',
        path: '/flowfolder/:id',
        scope: 'service.flow',
        summary: 'Rename a folder or move it into another (not into itself)',
        bodyRoot: 'flowfolder',
      },
      () => ({
        params: Id(),
        body: z.object({ name: FolderName().optional(), parent: z.string().min(1).max(64).nullable().optional() }),
        output: FolderView(),
      }),
    ),
    deleteFlowFolder: op(
      {
        method: 'DELETE',
        path: '/flowfolder/:id',
        scope: 'service.flow',
        summary: 'Delete a folder; its flows and folders move to its parent',
        status: 204,
      },
      () => ({
        params: Id(),
      }),
    ),
    getFlowCardTriggers: op(
      {
        method: 'GET',
        path: '/flowcardtrigger',
        scope: 'service.flow.readonly',
        summary: 'Every trigger card by id',
      },
      () => ({
        output: z.record(z.string(), CardView()),
      }),
    ),
    getFlowCardTrigger: op(
      {
        method: 'GET',
        path: '/flowcardtrigger/:uri/:id',
        scope: 'service.flow.readonly',
        summary: 'One trigger card',
      },
      () => ({
        params: CardPath(),
        output: CardView(),
      }),
    ),
    getFlowCardConditions: op(
      {
        method: 'GET',
        path: '/flowcardcondition',
        scope: 'service.flow.readonly',
        summary: 'Every condition card by id',
      },
      () => ({
        output: z.record(z.string(), CardView()),
      }),
    ),
    getFlowCardCondition: op(
      {
        method: 'GET',
        path: '/flowcardcondition/:uri/:id',
        scope: 'service.flow.readonly',
        summary: 'One condition card',
      },
      () => ({
        params: CardPath(),
        output: CardView(),
      }),
    ),
    runFlowCardCondition: op(
      {
        method: 'POST',
        path: '/flowcardcondition/:uri/:id/run',
        scope: 'service.flow',
        summary: 'Run a condition card with `{args, tokens?, state?}`: its answer, true or false',
      },
      () => ({
        params: CardPath(),
        body: RunBody(),
        output: z.boolean(),
      }),
    ),
    getFlowCardActions: op(
      {
        method: 'GET',
        path: '/flowcardaction',
        scope: 'service.flow.readonly',
        summary: 'Every action card by id',
      },
      () => ({
        output: z.record(z.string(), CardView()),
      }),
    ),
    getFlowCardAction: op(
      {
        method: 'GET',
        path: '/flowcardaction/:uri/:id',
        scope: 'service.flow.readonly',
        summary: 'One action card',
      },
      () => ({
        params: CardPath(),
        output: CardView(),
      }),
    ),
    runFlowCardAction: op(
      {
        method: 'POST',
        path: '/flowcardaction/:uri/:id/run',
        scope: 'service.flow',
        summary: 'Run an action card with `{args, tokens?, state?}`: the tokens its listener answered (an object), or null',
      },
      () => ({
        params: CardPath(),
        body: RunBody(),
        output: JsonObject().nullable(),
      }),
    ),
    getFlowCardAutocomplete: op(
      {
        method: 'GET',
        path: '/:type/:uri/:id/autocomplete',
        scope: 'service.flow.readonly',
        summary: "An autocomplete argument's choices for `?name=<arg>&query=<text>` (`args` the other arguments, as JSON)",
      },
      () => ({
        params: z.object({
          type: z.enum(['flowcardtrigger', 'flowcardcondition', 'flowcardaction']),
          uri: z.string().min(1).max(200),
          id: z.string().min(1).max(300),
        }),
        query: z.object({ name: z.string().min(1).max(128), query: z.string().max(1000).default(''), args: z.string().max(65536).optional() }),
        output: z.array(z.looseObject({ name: z.string() })),
      }),
    ),
    getAdvancedFlows: advanced('GET', '/advancedflow', 'Advanced flows'),
    getAdvancedFlow: advanced('GET', '/advancedflow/:id', 'One advanced flow'),
    createAdvancedFlow: advanced('POST', '/advancedflow', 'Create an advanced flow'),
    updateAdvancedFlow: advanced('PUT', '/advancedflow/:id', 'Change an advanced flow'),
    deleteAdvancedFlow: advanced('DELETE', '/advancedflow/:id', 'Delete an advanced flow'),
    triggerAdvancedFlow: advanced('POST', '/advancedflow/:id/trigger', 'Start an advanced flow'),
  },
});
