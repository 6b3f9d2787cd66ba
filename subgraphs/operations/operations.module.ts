import { CONTRACTS } from '../../contracts/registry.js';
import { OPERATIONS_FEED } from '../../contracts/operations/sagas.contract.js';
import { EventPruner, pruneTopicFeed } from '../shared/events/event-retention.js';
import { publicGuard } from '../shared/contracts/public-guard.js';
import { Mailer } from '../shared/mailer.js';
import { SecretBox } from '../shared/secret-box.js';
import type { SubgraphModule } from '../shared/subgraph.js';
import { AuditService } from './core/audit.service.js';
import { SystemRoleBook } from './core/system-roles.js';
import { OperationsGuard } from './iam/operations-guard.js';
import { UserReferences } from './iam/user-references.js';
import { User } from '../../contracts/operations/iam-types.js';
import { implementEntity } from '../shared/contracts/implementation.js';
import { recordOperations } from './core/records.operations.js';
import { tenantReferences } from './core/references.js';
import { tenantTransaction } from './core/tenancy.js';
import { TrashService } from './core/trash.service.js';
import { firstStart } from './demo/first-start.js';
import { DocumentFilesService } from './documents/document-files.service.js';
import { documentStorage } from './documents/document-storage.js';
import { documentOperations } from './documents/documents.operations.js';
import { DocumentsService } from './documents/documents.service.js';
import { assetClassTrash } from './eam/asset-class.service.js';
import { eamOperations, eamServices } from './eam/eam.operations.js';
import { fuelOperations, fuelServices } from './fuel/fuel.operations.js';
import { healthOperations, OperationsHealthService } from './health/operations-health.service.js';
import { brigadeTrash, BrigadesService } from './hr/brigades.service.js';
import { hrOperations } from './hr/hr.operations.js';
import { HR_ASSIGNMENT_CHECKS } from './hr/open-assignments.js';
import { PersonnelStatusService } from './hr/personnel-status.service.js';
import { PersonnelService } from './hr/personnel.service.js';
import { AccountsService } from './iam/accounts.service.js';
import { ApiKeyAccess } from './iam/api-key-access.js';
import { ApiKeysService } from './iam/api-keys.service.js';
import { AttemptCounter } from './iam/attempts.js';
import { BotChallenge } from './iam/bot-challenge.js';
import { ExternalSignInService } from './iam/external-sign-in.service.js';
import { iamOperations } from './iam/iam.operations.js';
import { notificationOperations } from './iam/notifications.operations.js';
import { NotificationsService } from './iam/notifications.service.js';
import { IamService } from './iam/iam.service.js';
import { OidcClientsService } from './iam/provider/clients.service.js';
import { oidcClientOperations } from './iam/provider/oidc-clients.operations.js';
import { OpenIdProvider } from './iam/provider/openid-provider.js';
import { SignInFlow } from './iam/sign-in.js';
import { SigningKeys } from './iam/signing-keys.js';
import { operationsMigrations } from './migrations/index.js';
import { DOMAIN_ENTITIES } from './domain-entities.js';
import { PLATFORM_ENTITIES } from './platform-entities.js';
import { organizationOperations } from './organizations/organizations.operations.js';
import { operatorInDraftReport } from './prd/operator-assignments.js';
import { prdOperations, prdServices } from './prd/prd.operations.js';
import { OrganizationsService } from './organizations/organizations.service.js';
import { ReferenceBookImportService } from './reference-books/reference-book-import.service.js';
import { ReferenceBookService } from './reference-books/reference-book.service.js';
import { referenceBookOperations, referenceBookTrash } from './reference-books/reference-books.operations.js';
import { assetDecommissionSaga } from './eam/decommission-saga.js';
import { SagaEngine } from './sagas/engine.js';
import { sagaOperations } from './sagas/sagas.operations.js';
import { SagasService } from './sagas/sagas.service.js';
import { scmOperations, scmServices } from './scm/scm.services.js';
import { webhookOperations } from './webhooks/webhooks.operations.js';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import { webhookServices } from './webhooks/webhook-services.js';

export const operationsModule: SubgraphModule = {
  name: 'operations',
  database: { schema: 'operations', entities: [...PLATFORM_ENTITIES, ...DOMAIN_ENTITIES], migrations: operationsMigrations },
  contracts: CONTRACTS.operations,
  createServices(runtime) {
    const box = SecretBox.fromConfig(runtime.config);
    const keys = new SigningKeys(box);
    const root = runtime.orm.em;
    const mailer = new Mailer(runtime.config, runtime.logger.child({ component: 'mail' }));
    const signIn = new SignInFlow(root, mailer, box);
    const iam = new IamService(keys, root, signIn, mailer, runtime.logger.child({ component: 'iam' }));
    const documents = documentStorage(runtime.config, box);
    const attempts = new AttemptCounter(root);
    const oidcClients = new OidcClientsService(box);
    const logger = runtime.logger.child({ component: 'oidc' });
    const roleBook = new SystemRoleBook(root, runtime.logger.child({ component: 'system-roles' }));
    const notifications = new NotificationsService(mailer, roleBook);
    const guard = new OperationsGuard(keys, new ApiKeyAccess(root), roleBook);
    const engine = new SagaEngine(root, runtime.queues, runtime.logger.child({ component: 'sagas' }));
    engine.register(assetDecommissionSaga);
    return [
      engine,
      ...prdServices(engine),
      new SagasService(runtime.queues, engine),
      keys,
      guard,
      new UserReferences(guard),
      notifications,
      new OperationsHealthService(runtime, keys, documents.checks),
      iam,
      new AccountsService(iam, signIn, mailer, box, new BotChallenge(runtime.config, box)),
      new ExternalSignInService(runtime.config.oidcProviders, iam, runtime.logger.child({ component: 'external-sign-in' })),
      new ApiKeysService(),
      attempts,
      oidcClients,
      new OpenIdProvider({ root, box, signIn, attempts, clients: oidcClients, logger, workspace: runtime.config }),
      new OrganizationsService(),
      new AuditService(),
      new TrashService([...referenceBookTrash, assetClassTrash, brigadeTrash]),
      new ReferenceBookService(),
      new ReferenceBookImportService(),
      ...eamServices(),
      ...fuelServices(notifications),
      ...scmServices(),
      new DocumentsService(documents.store, documents.scanner, runtime.logger.child({ component: 'documents' })),
      new DocumentFilesService(documents.signer, documents.local),
      new PersonnelService(),
      new PersonnelStatusService([...HR_ASSIGNMENT_CHECKS, operatorInDraftReport]),
      new BrigadesService(),
      ...webhookServices(runtime),
      // The outbox is pruned by the webhook dispatcher, which knows what it still needs; the topic feed here.
      new EventPruner(
        () => pruneTopicFeed(root.fork(), OPERATIONS_FEED, runtime.config.outboxRetentionDays),
        runtime.logger.child({ component: 'event-retention' }),
      ),
    ];
  },
  bind: (services, runtime) => ({
    implementations: [
      ...healthOperations(services),
      ...iamOperations(services, runtime.config),
      ...notificationOperations(services),
      ...oidcClientOperations(services),
      ...organizationOperations(services),
      ...recordOperations(services),
      ...referenceBookOperations(services),
      ...eamOperations(services),
      ...fuelOperations(services),
      ...scmOperations(services),
      ...documentOperations(services),
      ...hrOperations(services),
      ...prdOperations(services),
      ...webhookOperations(services),
      ...sagaOperations(services),
    ],
    guards: { public: publicGuard, operations: services.get(OperationsGuard) },
    entities: [implementEntity(User, (reference, ctx) => services.get(UserReferences).resolve(reference, ctx))],
    around: tenantTransaction,
    references: tenantReferences,
    throttle: services.get(AttemptCounter).throttle,
  }),
  http: (services, _runtime, origin) => [services.get(OpenIdProvider).mount(origin)],
  async onReady(runtime, services, run) {
    const root = runtime.orm.em.fork();
    const keys = services.get(SigningKeys);
    await keys.load(root);
    await firstStart(root, services.get(IamService), runtime.config, runtime.logger.child({ component: 'first-start' }), { run, keys });
    services.get(WebhookDispatcher).start();
    services.get(EventPruner).start();
  },
  async onClose(services) {
    await services.get(EventPruner).stop();
    await services.get(WebhookDispatcher).stop();
  },
};
