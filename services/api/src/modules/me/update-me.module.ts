import type { ApiModule } from '../api-module';
import { summaryRoutes } from './summary.routes';
import { updateMeRoutes } from './update-me.routes';

/** PUT /me and GET /me/summary, on the `me` schema the me module registers. */
export const meLedgerModule: ApiModule = {
  name: 'me-ledger',
  routes: (deps) => updateMeRoutes(deps).use(summaryRoutes(deps)),
};
