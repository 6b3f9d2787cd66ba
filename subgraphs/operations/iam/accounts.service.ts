import { randomBytes } from 'node:crypto';
import { sql } from '@mikro-orm/core';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { hash, verify } from '@node-rs/argon2';
import { generateSecret, generateURI } from 'otplib';
import type { z } from 'zod';
import type { ContractInput } from '../../../contracts/operation.js';
import type { iamRegister, iamUpdateProfile } from '../../../contracts/operations/accounts.contract.js';
import { LoginEvent, PROFILE_ANSWERS, type ProfileData } from '../../../contracts/operations/iam-types.js';
import type { Mailer } from '../../shared/mailer.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import { defineStateRules, requireState } from '../core/state-machine.js';
import { OperationsError } from '../operations.errors.js';
import { ACCOUNT_TOKENS, accountTokens } from './account-tokens.js';
import type { BotChallenge } from './bot-challenge.js';
import type { ClientInfo } from './client.js';
import type { IamService } from './iam.service.js';
import { backupCodeHash, type AccountRow, type SignInFlow } from './sign-in.js';
import { USER_COLUMNS, userData, type UserRow } from './users.js';
import { AppUserEntity } from './app-user.entity.js';
import { AllowedIpEntity, BackupCodeEntity } from './two-factor.entity.js';

type Registration = ContractInput<typeof iamRegister>;
type ProfileChanges = ContractInput<typeof iamUpdateProfile>;

const BACKUP_CODES = 10;
const ONBOARDING = PROFILE_ANSWERS;

interface ProfileRow {
  id: string;
  email: string;
  name: string;
  email_verified_at: Date | null;
  onboarding: Record<string, string | undefined>;
  created_at: Date;
  pending_email: string | null;
}
const loginEvent = recordMapper<z.output<typeof LoginEvent>>(LoginEvent);

/** The `totp_enabled` flag read as a state: a new secret only while the app is off (enabling and disabling answer their own errors). */
const authenticatorApp = defineStateRules<'disabled' | 'enabled', never, 'setup'>({
  entity: 'The authenticator app',
  transitions: {},
  requires: { setup: ['disabled'] },
});

/** Ten codes like `k7q2m-x9d4p`, from an alphabet without look-alike characters. */
function newBackupCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: BACKUP_CODES }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/**
 * The account side of part C: registration and verification, password reset and
 * invitations, IP approval, the second-factor and whitelist settings, and the history.
 * Links are mailed; answers to "mail me" requests never say whether an account exists.
 */
export class AccountsService {
  constructor(
    private readonly iam: IamService,
    private readonly signIn: SignInFlow,
    private readonly mailer: Mailer,
    private readonly box: SecretBox,
    private readonly bot: BotChallenge,
  ) {}

  /** A signed ALTCHA challenge for the registration form. */
  challenge() {
    return this.bot.issue();
  }

  async register(em: EntityManager, input: Registration, client: ClientInfo) {
    await this.bot.pass(input.challenge_token, client.ip);
    const onboarding = Object.fromEntries(ONBOARDING.flatMap((field) => (input[field] === undefined ? [] : [[field, input[field]]])));
    // raw SQL: `on conflict (lower(email)) do nothing`: the conflict target is an expression index
    const [user] = await em.execute<UserRow[]>(
      `insert into "operations"."app_user" as u ("email", "password_hash", "name", "onboarding", "referral_code", "affiliate_code", "invitation_code")
       values (?, ?, ?, ?::jsonb, ?, ?, ?) on conflict (lower("email")) do nothing returning ${USER_COLUMNS}`,
      [
        input.email.trim(),
        await hash(input.password),
        input.name,
        JSON.stringify(onboarding),
        input.referral_code ?? null,
        input.affiliate_code ?? null,
        input.invitation_code ?? null,
      ],
    );
    if (!user) throw OperationsError.emailTaken();
    await this.mailVerification(em, user, client);
    return { user: userData(user), verification_sent: true };
  }

  private async mailVerification(em: EntityManager, user: UserRow, client: ClientInfo): Promise<void> {
    await accountTokens.retire(em, user.id, ACCOUNT_TOKENS.verifyEmail);
    const token = await accountTokens.issue(em, user.id, ACCOUNT_TOKENS.verifyEmail);
    await this.mailer.send({
      to: user.email,
      subject: 'Verify your e-mail address',
      text: `Hello ${user.name},\n\nConfirm your e-mail address to activate your Qantara account (the link is valid for 24 hours):\n${client.baseUrl}/api/v1/iam/verify-email/${token}\n`,
    });
  }

  async verifyEmail(em: EntityManager, token: string) {
    const { userId } = await accountTokens.spend(em, token, ACCOUNT_TOKENS.verifyEmail);
    await em.nativeUpdate(AppUserEntity, { id: userId, emailVerifiedAt: null }, { emailVerifiedAt: new Date() });
    return { done: true as const };
  }

  async resendVerification(em: EntityManager, email: string, client: ClientInfo) {
    const account = await this.signIn.account(em, { email });
    if (account && !account.email_verified_at && !account.banned_at) await this.mailVerification(em, account, client);
    return { accepted: true as const };
  }

  async forgotPassword(em: EntityManager, email: string, client: ClientInfo) {
    const account = await this.signIn.account(em, { email });
    if (account?.active && !account.banned_at) {
      await accountTokens.retire(em, account.id, ACCOUNT_TOKENS.resetPassword);
      const token = await accountTokens.issue(em, account.id, ACCOUNT_TOKENS.resetPassword);
      await this.mailer.send({
        to: account.email,
        subject: 'Reset your password',
        text:
          `Hello ${account.name},\n\nSomeone asked to reset your Qantara password. If it was you, choose a new one (the link is valid for 60 minutes):\n` +
          `${client.baseUrl}/reset-password?token=${token}\n\nSend the token with your new password to POST ${client.baseUrl}/api/v1/iam/reset-password.\n` +
          'Resetting signs you out on every device. If it was not you, ignore this mail.',
      });
    }
    return { accepted: true as const };
  }

  /** A new password from a reset link: every session of the account ends; the address is proven too. */
  async resetPassword(em: EntityManager, token: string, password: string) {
    const { userId } = await accountTokens.spend(em, token, ACCOUNT_TOKENS.resetPassword);
    await this.setPassword(em, userId, password);
    await this.iam.revokeAllSessions(em, userId);
    return { done: true as const };
  }

  async setInvitedPassword(em: EntityManager, token: string, password: string) {
    const { userId } = await accountTokens.spend(em, token, ACCOUNT_TOKENS.invitation);
    await this.setPassword(em, userId, password);
    return { done: true as const };
  }

  private async setPassword(em: EntityManager, userId: string, password: string): Promise<void> {
    // raw SQL: the password set and the first verification time kept, in one update
    await em.execute(
      `update "operations"."app_user" set "password_hash" = ?, "email_verified_at" = coalesce("email_verified_at", now()), "updated_at" = now() where "id" = ?`,
      [await hash(password), userId],
    );
  }

  async approveIp(em: EntityManager, token: string) {
    const { userId, payload } = await accountTokens.spend<{ ip: string | null }>(em, token, ACCOUNT_TOKENS.approveIp);
    if (payload.ip) {
      await em
        .createQueryBuilder(AllowedIpEntity)
        .insert({ userId: userId, ip: payload.ip })
        .onConflict(['userId', 'ip'])
        .ignore()
        .execute();
    }
    return { done: true as const, ip: payload.ip };
  }

  async security(em: EntityManager, principal: Principal) {
    const account = await this.accountOf(em, principal);
    const backupCodesLeft = await em.count(BackupCodeEntity, { userId: account.id, usedAt: null });
    const ips = await em.find(AllowedIpEntity, { userId: account.id }, { orderBy: { approvedAt: 'asc' } });
    return {
      two_factor_email: account.two_factor_email,
      totp_enabled: account.totp_enabled,
      backup_codes_left: backupCodesLeft,
      ip_whitelist: account.ip_whitelist,
      allowed_ips: ips.map((row) => row.ip),
    };
  }

  private async accountOf(em: EntityManager, principal: Principal): Promise<AccountRow> {
    const account = await this.signIn.account(em, { id: principal.userId });
    if (!account) throw OperationsError.tokenInvalid();
    return account;
  }

  private async confirmPassword(account: AccountRow, password: string): Promise<void> {
    const matches = account.password_hash ? await verify(account.password_hash, password).catch(() => false) : false;
    if (!matches) throw OperationsError.passwordWrong();
  }

  /** A new password, confirmed with the current one; every other session of the account is signed out. */
  async changePassword(em: EntityManager, principal: Principal, current: string, next: string) {
    const account = await this.accountOf(em, principal);
    await this.confirmPassword(account, current);
    await this.setPassword(em, account.id, next);
    await this.iam.revokeOtherSessions(em, principal);
    return { done: true as const };
  }

  async profile(em: EntityManager, principal: Principal): Promise<ProfileData> {
    // raw SQL: the user and the address of its newest open e-mail change (a jsonb field of the token) in one read.
    const [row] = await em.execute<ProfileRow[]>(
      `select u."id", u."email", u."name", u."email_verified_at", u."onboarding", u."created_at",
         (select t."payload"->>'email' from "operations"."account_token" t
           where t."user_id" = u."id" and t."purpose" = ? and t."used_at" is null and t."expires_at" > now()
           order by t."created_at" desc limit 1) as "pending_email"
       from "operations"."app_user" u where u."id" = ?`,
      [ACCOUNT_TOKENS.changeEmail.purpose, principal.userId],
    );
    if (!row) throw OperationsError.tokenInvalid();
    const answer = (field: (typeof PROFILE_ANSWERS)[number]) => row.onboarding[field] ?? null;
    return {
      id: row.id,
      email: row.email,
      pending_email: row.pending_email,
      email_verified: row.email_verified_at !== null,
      name: row.name,
      default_plan: answer('default_plan') as ProfileData['default_plan'],
      company_size: answer('company_size'),
      industry: answer('industry'),
      management_experience: answer('management_experience'),
      heard_about_us: answer('heard_about_us'),
      created_at: new Date(row.created_at).toISOString(),
    };
  }

  /** The fields sent change; a null answer is removed from the registration answers. */
  async updateProfile(em: EntityManager, principal: Principal, changes: ProfileChanges): Promise<ProfileData> {
    const set = Object.fromEntries(PROFILE_ANSWERS.flatMap((field) => (changes[field] === undefined ? [] : [[field, changes[field]]])));
    // raw SQL: the answers merged into the jsonb column in place, so concurrent changes of other answers are kept.
    await em.execute(
      `update "operations"."app_user"
         set "name" = coalesce(?, "name"), "onboarding" = jsonb_strip_nulls("onboarding" || ?::jsonb), "updated_at" = now()
       where "id" = ?`,
      [changes.name ?? null, JSON.stringify(set), principal.userId],
    );
    return this.profile(em, principal);
  }

  /**
   * A change of address waits for the link mailed to the new address; the current one is told,
   * with no link, so a stolen session cannot quietly move the account elsewhere unnoticed.
   */
  async changeEmail(em: EntityManager, principal: Principal, input: { new_email: string; password: string }, client: ClientInfo) {
    const account = await this.accountOf(em, principal);
    await this.confirmPassword(account, input.password);
    const next = input.new_email.trim();
    if (next.toLowerCase() === account.email.toLowerCase()) throw OperationsError.invalid('new_email', 'is the current address');
    await this.ensureEmailFree(em, next);
    await accountTokens.retire(em, account.id, ACCOUNT_TOKENS.changeEmail);
    const token = await accountTokens.issue(em, account.id, ACCOUNT_TOKENS.changeEmail, { email: next });
    await this.mailer.send({
      to: next,
      subject: 'Confirm your new e-mail address',
      text:
        `Hello ${account.name},\n\nConfirm this address for your Qantara account (the link is valid for 24 hours):\n` +
        `${client.baseUrl}/api/v1/iam/email-changes/${token}\n\nUntil then the account keeps its current address. If you did not ask for this, ignore this mail.`,
    });
    await this.mailer.send({
      to: account.email,
      subject: 'A change of your e-mail address was requested',
      text:
        `Hello ${account.name},\n\nSomeone signed in to your Qantara account asked to move it to the address ${next}. ` +
        'It changes only once the link sent to that address is followed.\n\n' +
        'If it was not you, sign in and change your password now, and sign out your other sessions.',
    });
    return { accepted: true as const, pending_email: next };
  }

  async confirmEmailChange(em: EntityManager, token: string) {
    const { userId, payload } = await accountTokens.spend<{ email: string }>(em, token, ACCOUNT_TOKENS.changeEmail);
    const account = await this.signIn.account(em, { id: userId });
    if (!account) throw OperationsError.linkInvalid();
    await this.ensureEmailFree(em, payload.email, userId);
    try {
      await em.nativeUpdate(
        AppUserEntity,
        { id: userId },
        { email: payload.email, emailVerifiedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` },
      );
    } catch (error) {
      // Taken between the check and the update by a registration running at the same time.
      if (error instanceof UniqueConstraintViolationException) throw OperationsError.emailTaken();
      throw error;
    }
    await this.mailer.send({
      to: account.email,
      subject: 'Your e-mail address was changed',
      text:
        `Hello ${account.name},\n\nThe address of your Qantara account is now ${payload.email}; this address no longer signs in.\n\n` +
        'If it was not you, contact the administrator of your organization.',
    });
    return { done: true as const, email: payload.email };
  }

  /** Another account holds the address (the unique index compares it case-insensitively). */
  private async ensureEmailFree(em: EntityManager, email: string, except: string | null = null): Promise<void> {
    // raw SQL: compares as the unique index does, on the expression lower("email").
    const [taken] = await em.execute<Array<{ id: string }>>(
      `select "id" from "operations"."app_user" where lower("email") = lower(?) and "id" is distinct from ?::uuid`,
      [email, except],
    );
    if (taken) throw OperationsError.emailTaken();
  }

  /** A new secret, sealed at rest; it waits for a confirming code. */
  async setupTotp(em: EntityManager, principal: Principal) {
    const account = await this.accountOf(em, principal);
    requireState(authenticatorApp, 'setup', account.totp_enabled ? 'enabled' : 'disabled');
    const secret = generateSecret();
    await em.nativeUpdate(AppUserEntity, { id: account.id }, { totpSecret: this.box.seal(secret) });
    return { secret, otpauth_url: generateURI({ issuer: 'Qantara', label: account.email, secret }) };
  }

  async enableTotp(em: EntityManager, principal: Principal, code: string) {
    const account = await this.accountOf(em, principal);
    if (account.totp_enabled || !account.totp_secret) throw OperationsError.totpNotPending();
    if (!(await this.signIn.totpMatches(account.totp_secret, code))) throw OperationsError.totpCodeInvalid();
    await em.nativeUpdate(AppUserEntity, { id: account.id }, { totpEnabled: true });
    return { backup_codes: await this.replaceBackupCodes(em, account.id) };
  }

  async disableTotp(em: EntityManager, principal: Principal, password: string) {
    const account = await this.accountOf(em, principal);
    await this.confirmPassword(account, password);
    await em.nativeUpdate(AppUserEntity, { id: account.id }, { totpEnabled: false, totpSecret: null });
    if (!account.two_factor_email) await em.nativeDelete(BackupCodeEntity, { userId: account.id });
    return this.security(em, principal);
  }

  async setEmailSecondFactor(em: EntityManager, principal: Principal, enabled: boolean, password: string) {
    const account = await this.accountOf(em, principal);
    await this.confirmPassword(account, password);
    await em.nativeUpdate(AppUserEntity, { id: account.id }, { twoFactorEmail: enabled });
    if (!enabled && !account.totp_enabled) await em.nativeDelete(BackupCodeEntity, { userId: account.id });
    return this.security(em, principal);
  }

  async regenerateBackupCodes(em: EntityManager, principal: Principal, password: string) {
    const account = await this.accountOf(em, principal);
    await this.confirmPassword(account, password);
    if (!account.totp_enabled && !account.two_factor_email) throw OperationsError.secondFactorMethodUnavailable('backup_code');
    return { backup_codes: await this.replaceBackupCodes(em, account.id) };
  }

  private async replaceBackupCodes(em: EntityManager, userId: string): Promise<string[]> {
    const codes = newBackupCodes();
    await em.nativeDelete(BackupCodeEntity, { userId });
    await em.insertMany(
      BackupCodeEntity,
      codes.map((code) => ({ userId, codeHash: backupCodeHash(code) })),
    );
    return codes;
  }

  async setIpWhitelist(em: EntityManager, principal: Principal, enabled: boolean, client: ClientInfo) {
    await em.nativeUpdate(AppUserEntity, { id: principal.userId }, { ipWhitelist: enabled });
    if (enabled && client.ip) {
      await em
        .createQueryBuilder(AllowedIpEntity)
        .insert({ userId: principal.userId, ip: client.ip })
        .onConflict(['userId', 'ip'])
        .ignore()
        .execute();
    }
    return this.security(em, principal);
  }

  async removeAllowedIp(em: EntityManager, principal: Principal, ip: string) {
    await em.nativeDelete(AllowedIpEntity, { userId: principal.userId, ip });
    return this.security(em, principal);
  }

  loginHistory(em: EntityManager, principal: Principal, page: { cursor?: string; limit: number }) {
    return cursorList(
      em,
      { table: '"operations"."login_event"', owner: { user_id: principal.userId }, orderBy: 'at', direction: 'desc' },
      page,
      loginEvent,
    );
  }
}
