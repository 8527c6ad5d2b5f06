/**
 * The images handlers: the images apps show for their devices, and their content.
 */
import { notFound } from '../../core/errors.js';
import { implement, type Operation } from '../../core/operation.js';
import type { TokenInfo } from '../../core/tokens.js';
import { imagesContract } from './contract.js';
import type { ImagesService } from './service.js';

/**
 * `seen(token, imageId)`: whether `token` may see the image. A token held to some rooms (a
 * guest's) sees only those shown on a device of its rooms; any other is to it one that does not exist.
 */
export function imagesOperations(service: ImagesService, seen: (token: TokenInfo | null, id: string) => boolean): Operation[] {
  return implement(imagesContract.operations, {
    getState: () => ({ images: service.count }),
    getImages: (_input, { token }) => {
      const all = service.list();
      for (const id of Object.keys(all)) if (!seen(token, id)) delete all[id];
      return all;
    },
    getImageContent: ({ params }, { token }) => {
      if (!seen(token, params.id)) throw notFound(`image '${params.id}' does not exist`);
      return service.content(params.id);
    },
  });
}
