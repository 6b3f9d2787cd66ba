import { randomBytes, randomInt } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hash, verify } from '@node-rs/argon2';
import { verify as verifyTotp } from 'otplib';
import type { SecondFactorMethodName } from '../../../contracts/operations/iam-types.js';
import type { Mailer } from '../../shared/mailer.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { OperationsError } from '../operations.errors.js';
import { ACCOUNT_TOKENS, accountTokens, sha256Hex } from './account-tokens.js';
import type { ClientInfo } from './client.js';
import { USER_COLUMNS, type UserRow } from './users.js';
import { LoginEventEntity } from './login-event.entity.js';
import { AllowedIpEntity, BackupCodeEntity, TwoFactorChallengeEntity } from './two-factor.entity.js';

/** Lifetimes and limits of a pending second factor (seed 001, part C, 2.7). */
export const SECOND_FACTOR = { minutes: 10, tries: 5 } as const;

/** An account as sign-in sees it: the user plus its credentials and security settings. */
export interface AccountRow extends UserRow {
  password_hash: string | null;
  two_factor_email: boolean;
  totp_secret: string | null;
  totp_enabled: boolean;
  ip_whitelist: boolean;
}

export const ACCOUNT_COLUMNS = `${USER_COLUMNS}, u."password_hash", u."two_factor_email",
  u."totp_secret", u."totp_enabled", u."ip_whitelist"`;

export interface PendingSecondFactor {
  readonly challenge_id: string;
  readonly methods: SecondFactorMethodName[];
  readonly expires_at: string;
}

/** Where a sign-in stands: done (a session may be issued), or waiting for a second factor. */
export type SignInStep =
  | { readonly kind: 'signed-in'; readonly user: UserRow }
  | { readonly kind: 'second-factor'; readonly user: UserRow; readonly pending: PendingSecondFactor };

/** Hashing a password costs the same whether or not the e-mail address is known. */
let decoy: Promise<string> | undefined;

const digits = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
const codeHash = (challengeId: string, code: string) => sha256Hex(`${challengeId}:${code}`);
/** Backup codes are compared without case, spaces or dashes. */
export const backupCodeHash = (code: string) => sha256Hex(code.toLowerCase().replace(/[\s-]/g, ''));

/**
 * Sign-in, whatever the first factor (password, external identity provider, our OpenID
 * provider's login page): banned and unverified accounts get their own messages, an address
 * outside an enabled IP whitelist is blocked and an approval link mailed, and an account with
 * a second factor gets a pending challenge instead of a session. Every attempt is written to
 * the sign-in history on its own connection, so refused attempts are recorded too.
 */
export class SignInFlow {
  constructor(
    private readonly root: EntityManager,
    private readonly mailer: Mailer,
    private readonly box: SecretBox,
  ) {}

  async account(em: EntityManager, where: { id: string } | { email: string }): Promise<AccountRow | undefined> {
    // raw SQL: the account in the AccountRow shape, matched case-insensitively by e-mail
    const [row] = await em.execute<AccountRow[]>(
      'id' in where
        ? `select ${ACCOUNT_COLUMNS} from "operations"."app_user" u where u."id" = ?`
        : `select ${ACCOUNT_COLUMNS} from "operations"."app_user" u where lower(u."email") = lower(?)`,
      ['id' in where ? where.id : where.email.trim()],
    );
    return row;
  }

  /** E-mail and password; wrong credentials get one message that never says which part was wrong. */
  async password(em: EntityManager, email: string, password: string, client: ClientInfo): Promise<SignInStep> {
    const account = await this.account(em, { email });
    decoy ??= hash(randomBytes(16).toString('hex'));
    const matches = await verify(account?.password_hash ?? (await decoy), password).catch(() => false);
    if (!account || !account.password_hash || !matches || !account.active) {
      await this.record(account?.id ?? null, email, client, 'password', 'invalid_credentials');
      throw OperationsError.invalidCredentials();
    }
    return this.afterFirstFactor(em, account, client, 'password');
  }

  /** The checks after the first factor, shared by every way of signing in. */
  async afterFirstFactor(em: EntityManager, account: AccountRow, client: ClientInfo, method: string): Promise<SignInStep> {
    if (account.banned_at) {
      await this.record(account.id, account.email, client, method, 'banned');
      throw OperationsError.accountBanned();
    }
    if (!account.email_verified_at) {
      await this.record(account.id, account.email, client, method, 'email_not_verified');
      throw OperationsError.emailNotVerified();
    }
    if (account.ip_whitelist && !(await this.ipAllowed(em, account.id, client.ip))) {
      await this.mailApproval(account, client);
      await this.record(account.id, account.email, client, method, 'ip_blocked');
      throw OperationsError.ipNotApproved();
    }
    const methods = await this.methods(em, account);
    if (methods.length === 0) {
      await this.record(account.id, account.email, client, method, 'success', em);
      return { kind: 'signed-in', user: account };
    }
    const pending = await this.challenge(em, account, methods, client);
    await this.record(account.id, account.email, client, method, 'second_factor_pending', em);
    return { kind: 'second-factor', user: account, pending };
  }

  /** The second factors the account has enabled; backup codes only alongside another one. */
  async methods(em: EntityManager, account: AccountRow): Promise<SecondFactorMethodName[]> {
    const methods: SecondFactorMethodName[] = [];
    if (account.two_factor_email) methods.push('email');
    if (account.totp_enabled) methods.push('totp');
    if (methods.length === 0) return methods;
    const backupCodes = await em.count(BackupCodeEntity, { userId: account.id, usedAt: null });
    if (backupCodes > 0) methods.push('backup_code');
    return methods;
  }

  private async challenge(
    em: EntityManager,
    account: AccountRow,
    methods: SecondFactorMethodName[],
    client: ClientInfo,
  ): Promise<PendingSecondFactor> {
    const challenge = em.create(TwoFactorChallengeEntity, {
      userId: account.id,
      ip: client.ip,
      userAgent: client.userAgent,
      expiresAt: new Date(Date.now() + SECOND_FACTOR.minutes * 60_000),
    });
    await em.flush();
    if (methods.includes('email')) await this.mailCode(em, challenge.id, account.email);
    return { challenge_id: challenge.id, methods, expires_at: challenge.expiresAt.toISOString() };
  }

  /** A fresh e-mailed code (10 minutes) for a pending challenge; the previous code stops working. */
  private async mailCode(em: EntityManager, challengeId: string, email: string): Promise<void> {
    const code = digits();
    await em.nativeUpdate(
      TwoFactorChallengeEntity,
      { id: challengeId },
      { codeHash: codeHash(challengeId, code), codeExpiresAt: new Date(Date.now() + SECOND_FACTOR.minutes * 60_000) },
    );
    await this.mailer.send({
      to: email,
      subject: `Your sign-in code: ${code}`,
      text: `Your Qantara sign-in code is ${code}.\n\nIt is valid for ${SECOND_FACTOR.minutes} minutes. If you did not try to sign in, change your password.`,
    });
  }

  /** Resends the e-mailed code of a pending challenge (only when the account has the e-mail method). */
  async resend(em: EntityManager, challengeId: string): Promise<void> {
    // raw SQL: the open challenge and its user's e-mail method in one join.
    const [row] = await em.execute<Array<{ email: string; two_factor_email: boolean }>>(
      `select u."email", u."two_factor_email" from "operations"."two_factor_challenge" c
       join "operations"."app_user" u on u."id" = c."user_id"
       where c."id" = ? and c."used_at" is null and c."expires_at" > now() and c."attempts" < ?`,
      [challengeId, SECOND_FACTOR.tries],
    );
    if (!row) throw OperationsError.secondFactorChallengeInvalid();
    if (!row.two_factor_email) throw OperationsError.secondFactorMethodUnavailable('email');
    await this.mailCode(em, challengeId, row.email);
  }

  /**
   * Checks a second factor. Every try is counted first, committed on its own, so at most
   * five are ever checked; a right code finishes the challenge once (a conditional update).
   */
  async secondFactor(
    em: EntityManager,
    challengeId: string,
    method: SecondFactorMethodName,
    code: string,
    client: ClientInfo,
  ): Promise<SignInStep> {
    // raw SQL: an atomic increment bounded in its WHERE, committed on its own, so at most `tries` codes are checked.
    const [counted] = await this.root.fork().execute<Array<{ user_id: string; attempts: number }>>(
      `update "operations"."two_factor_challenge" set "attempts" = "attempts" + 1
       where "id" = ? and "used_at" is null and "expires_at" > now() and "attempts" < ? returning "user_id", "attempts"`,
      [challengeId, SECOND_FACTOR.tries],
    );
    if (!counted) throw OperationsError.secondFactorChallengeInvalid();
    const account = await this.account(em, { id: counted.user_id });
    if (!account || !account.active || account.banned_at) throw OperationsError.secondFactorChallengeInvalid();
    const methods = await this.methods(em, account);
    if (!methods.includes(method)) throw OperationsError.secondFactorMethodUnavailable(method);
    if (!(await this.check(em, challengeId, account, method, code))) {
      await this.record(account.id, account.email, client, `second_factor:${method}`, 'second_factor_failed');
      throw OperationsError.secondFactorInvalid(SECOND_FACTOR.tries - counted.attempts);
    }
    const finished = await em.nativeUpdate(TwoFactorChallengeEntity, { id: challengeId, usedAt: null }, { usedAt: new Date() });
    if (finished === 0) throw OperationsError.secondFactorChallengeInvalid();
    await this.record(account.id, account.email, client, `second_factor:${method}`, 'success', em);
    return { kind: 'signed-in', user: account };
  }

  private async check(em: EntityManager, challengeId: string, account: AccountRow, method: SecondFactorMethodName, code: string) {
    const given = code.trim();
    if (method === 'email') {
      const matching = await em.count(TwoFactorChallengeEntity, {
        id: challengeId,
        codeHash: codeHash(challengeId, given),
        codeExpiresAt: { $gt: new Date() },
      });
      return matching > 0;
    }
    if (method === 'totp') return this.totpMatches(account.totp_secret, given);
    // A backup code is spent by one conditional update: it works once.
    const used = await em.nativeUpdate(
      BackupCodeEntity,
      { userId: account.id, codeHash: backupCodeHash(given), usedAt: null },
      { usedAt: new Date() },
    );
    return used > 0;
  }

  /** An authenticator code against a sealed secret, one 30-second step either side. */
  async totpMatches(sealedSecret: string | null, code: string): Promise<boolean> {
    if (!sealedSecret || !/^\d{6}$/.test(code)) return false;
    const result = await verifyTotp({ secret: this.box.unseal(sealedSecret), token: code, epochTolerance: 30 }).catch(() => undefined);
    return result?.valid === true;
  }

  private async ipAllowed(em: EntityManager, userId: string, ip: string | null): Promise<boolean> {
    if (!ip) return false;
    return (await em.count(AllowedIpEntity, { userId, ip })) > 0;
  }

  /** The approval link for a blocked address (24 h), committed even though the sign-in is refused. */
  private async mailApproval(account: AccountRow, client: ClientInfo): Promise<void> {
    const token = await accountTokens.issue(this.root.fork(), account.id, ACCOUNT_TOKENS.approveIp, { ip: client.ip });
    await this.mailer.send({
      to: account.email,
      subject: 'Approve a sign-in from a new address',
      text:
        `Someone signed in to your Qantara account from ${client.ip ?? 'an unknown address'}` +
        `${client.userAgent ? ` (${client.userAgent})` : ''}.\n\n` +
        `If it was you, approve this address (the link is valid for 24 hours):\n${client.baseUrl}/api/v1/iam/ip-approvals/${token}\n\n` +
        'If it was not you, change your password.',
    });
  }

  /**
   * One line of the sign-in history: a refusal on its own connection (kept although the
   * call fails), a success in the call's transaction (its account may be new in it).
   */
  async record(
    userId: string | null,
    email: string,
    client: ClientInfo,
    method: string,
    outcome: string,
    em: EntityManager = this.root.fork(),
  ): Promise<void> {
    await em.insert(LoginEventEntity, {
      userId,
      email: email.slice(0, 254),
      ip: client.ip,
      userAgent: client.userAgent,
      method,
      outcome,
    });
  }
}
