import { apiModule } from '../api-module';
import { imagesHandlers, imagesOperations } from './images.routes';
import { imagesSchema } from './images.schema';

export const imagesModule = apiModule({
  name: 'images',
  resources: [
    {
      schema: imagesSchema,
      rels: ['list', 'create', 'self', 'update', 'patch', 'delete', 'thumb-jpg', 'full-jpg', 'document-pdf'],
    },
  ],
  operations: imagesOperations,
  handlers: imagesHandlers,
});
