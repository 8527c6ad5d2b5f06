/**
 * The OpenAPI 3.1 document, generated from the operation tables on first request (the generator
 * is loaded only then: it is not worth its memory on a Pi until someone asks).
 */
import { z } from 'zod';
import type { EventContract } from '../core/events.js';
import type { MountedOperation } from './mount.js';

const ErrorBody = z.object({
  error: z.string(),
  error_description: z.string(),
  statusCode: z.number().int(),
});

/** Hono `:id` -> OpenAPI `{id}`. */
const openApiPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * The document; `events` (each manager's event contract) goes in as `x-hearth-events`: for each
 * namespace, each event with the JSON Schemas of its arguments.
 */
export async function buildOpenApiDocument(
  ops: readonly MountedOperation[],
  version: string,
  events: Readonly<Record<string, EventContract>> = {},
): Promise<object> {
  const { OpenAPIHono } = await import('@hono/zod-openapi');
  const doc = new OpenAPIHono();
  doc.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  for (const { manager, fullPath, op } of ops) {
    const success = op.status ?? 200;
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {
      [success]:
        success === 204
          ? { description: 'Done; no body' }
          : {
              description: 'Success',
              content: {
                // An operation may answer either (say: JSON, or the audio with synthesize: true).
                ...(op.output || !op.produces ? { 'application/json': { schema: op.output ?? z.unknown() } } : {}),
                ...(op.produces ? { [op.produces]: { schema: z.string().meta({ format: 'binary' }) } } : {}),
              },
            },
      default: { description: 'Error', content: { 'application/json': { schema: ErrorBody } } },
    };
    doc.openAPIRegistry.registerPath({
      method: op.method.toLowerCase() as 'get',
      path: openApiPath(fullPath),
      operationId: op.id,
      summary: op.summary,
      tags: [manager],
      security: op.auth === 'none' ? [] : [{ bearer: op.scope ? [op.scope] : [] }],
      request: {
        ...(op.params ? { params: op.params as z.ZodObject } : {}),
        ...(op.query ? { query: op.query as z.ZodObject } : {}),
        ...(op.body ? { body: { content: { 'application/json': { schema: op.body } }, required: true } } : {}),
        ...(op.upload
          ? { body: { content: Object.fromEntries(op.upload.types.map((t) => [t, { schema: z.string().meta({ format: 'binary' }) }])), required: true } }
          : {}),
      },
      responses,
      ...(op.extension ? { 'x-hearth-extension': true } : {}),
    });
  }
  const document = doc.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'hearth',
      version,
      description: 'Home-automation hub API. Authenticate with "Authorization: Bearer <token>".',
    },
  });
  const eventDoc = Object.fromEntries(
    Object.entries(events).map(([manager, contract]) => [
      manager,
      Object.fromEntries(Object.entries(contract).map(([event, args]) => [event, args.map((a) => z.toJSONSchema(a, { unrepresentable: 'any' }))])),
    ]),
  );
  return { ...document, 'x-hearth-events': eventDoc };
}
