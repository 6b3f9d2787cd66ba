import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AppUserEntity } from '../app-user.entity.js';
import type { OidcScopeName } from '../../../../contracts/operations/oidc-clients.contract.js';

/** A relying party of the built-in OpenID provider; a confidential client's secret is sealed. */
export const OidcClientEntity = defineEntity({
  name: 'OidcClient',
  tableName: 'oidc_client',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    clientId: p.string().length(64),
    name: p.string().length(200),
    public: p.boolean(),
    clientSecret: p.text().nullable(),
    redirectUris: p.array().columnType('text[]'),
    postLogoutRedirectUris: p.array().columnType('text[]').defaultRaw("'{}'::text[]"),
    scopes: p.array().$type<OidcScopeName[]>().columnType('text[]'),
    createdBy: p.manyToOne(AppUserEntity).mapToPk().fieldName('created_by').nullable(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type OidcClient = InferEntity<typeof OidcClientEntity>;

/** The OpenID provider's stored artefacts (sessions, grants, codes, tokens…) by model and hashed id. */
export const OidcPayloadEntity = defineEntity({
  name: 'OidcPayload',
  tableName: 'oidc_payload',
  properties: {
    model: p.string().length(64).primary(),
    idHash: p.string().columnType('char(64)').primary(),
    payload: p.json<Record<string, unknown>>(),
    clientId: p.string().length(64).nullable(),
    grantId: p.text().nullable(),
    uid: p.text().nullable(),
    userCode: p.text().nullable(),
    expiresAt: p.datetime().columnType('timestamptz').nullable(),
    consumedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

export type OidcPayload = InferEntity<typeof OidcPayloadEntity>;

/** A sealed key of the OpenID provider (signing keys, cookie keys). */
export const OidcKeyEntity = defineEntity({
  name: 'OidcKey',
  tableName: 'oidc_key',
  properties: {
    kid: p.text().primary(),
    use: p.string().length(16).$type<'signing' | 'cookie'>(),
    sealed: p.text(),
    createdAt: p.datetime().columnType('timestamptz').defaultRaw('now()'),
  },
});

export type OidcKey = InferEntity<typeof OidcKeyEntity>;
