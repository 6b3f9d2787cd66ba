import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A workspace: it holds cases, credits and keys. `kind` says who made it (`admin`, `demo`, or a signed-in
 * `user`, then named by `ownerIssuer`/`ownerSubject`); `signedOutAt` refuses the owner's access tokens
 * issued up to that time.
 */
export const WorkspaceEntity = defineEntity({
  name: 'Workspace',
  tableName: 'workspace',
  properties: {
    id: p.text().primary(),
    name: p.text(),
    kind: p.text().$type<'admin' | 'demo' | 'user'>(),
    ownerSubject: p.text().nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
    ownerIssuer: p.text().nullable(),
    signedOutAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type Workspace = InferEntity<typeof WorkspaceEntity>;
