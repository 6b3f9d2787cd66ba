import { DomainError } from '../../../../contracts/errors.js';
import { OidcClientErrorCode as Code } from '../../../../contracts/operations/oidc-clients.contract.js';

/** Errors of the OpenID provider's client registry. */
export class OidcClientError extends DomainError {
  static notFound(): OidcClientError {
    return new OidcClientError(Code.OIDC_CLIENT_NOT_FOUND, 'No OpenID client with this client_id is registered.', { param: 'clientId' });
  }
}
