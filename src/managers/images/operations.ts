/**
 * The images handlers: the images apps show for their devices, and their content.
 */
import { implement, type Operation } from '../../core/operation.js';
import { imagesContract } from './contract.js';
import type { ImagesService } from './service.js';

export function imagesOperations(service: ImagesService): Operation[] {
  return implement(imagesContract.operations, {
    getState: () => ({ images: service.count }),
    getImages: () => service.list(),
    getImageContent: ({ params }) => service.content(params.id),
  });
}
