/**
 * The images contract: images apps show (a device's album art, camera pictures; Homey's images
 * manager). Their content is served by the hub: a file or stream image is read by its app, an
 * image with a URL is a redirect to it. Only image types are served as what they are.
 */
import { z } from 'zod';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';

export const ImageView = lazy(() =>
  z.object({
    id: z.string(),
    ownerUri: z.string().describe('homey:app:<appId>'),
    url: z.string().describe("its content: the hub's content path (GET with a token that can read devices), or the image's own http(s) URL"),
    lastUpdated: z.string(),
  }),
);
export type ImageView = z.infer<ReturnType<typeof ImageView>>;

const Id = lazy(() => z.object({ id: z.string().min(1).max(64) }));

export const imagesContract = defineContract({
  name: 'images',
  eventScope: null,
  operations: {
    getState: stateOperation({ summary: 'How many images the apps show', output: () => z.object({ images: z.number().int() }) }),
    getImages: op(
      {
        method: 'GET',
        path: '/image',
        scope: 'service.device.readonly',
        summary: 'Every image by id',
      },
      () => ({
        output: z.record(z.string(), ImageView()),
      }),
    ),
    getImageContent: op(
      {
        method: 'GET',
        path: '/image/:id/content',
        scope: 'service.device.readonly',
        extension: true,
        summary: "hearth's own: the image itself (JPEG, PNG, GIF or WebP), or a redirect to its URL",
        produces: 'image/*',
      },
      () => ({
        params: Id(),
      }),
    ),
  },
});
