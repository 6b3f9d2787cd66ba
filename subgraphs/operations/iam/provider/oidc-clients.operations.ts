import * as C from '../../../../contracts/operations/oidc-clients.contract.js';
import { implement, type Implementation } from '../../../shared/contracts/implementation.js';
import type { Services } from '../../../shared/subgraph.js';
import { OidcClientsService } from './clients.service.js';

/** Registering the OpenID provider's clients (super-admin). */
export function oidcClientOperations(services: Services): Implementation[] {
  const clients = services.get(OidcClientsService);
  return [
    implement(C.iamListOidcClients, (input, { ctx }) => clients.list(ctx.em, input)),
    implement(C.iamCreateOidcClient, (input, { ctx, caller }) => clients.create(ctx.em, caller, input)),
    implement(C.iamGetOidcClient, (input, { ctx }) => clients.get(ctx.em, input.clientId)),
    implement(C.iamDeleteOidcClient, (input, { ctx }) => clients.remove(ctx.em, input.clientId)),
  ];
}
