import type { ApiModule } from '../api-module';
import { imageFilesRoutes } from './image-files.routes';
import { imagesRoutes } from './images.routes';
import { imagesSchema } from './images.schema';

export const imagesModule: ApiModule = {
  name: 'images',
  schemas: [imagesSchema],
  routes: imagesRoutes,
  fileRoutes: imageFilesRoutes,
};
