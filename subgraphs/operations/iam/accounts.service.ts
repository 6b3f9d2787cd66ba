import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hash, verify } from '@node-rs/argon2';
import { generateSecret, generateURI } from 'otplib';
import type { z } from 'zod';
import type { ContractInput } from '../../../contracts/operation.js';
import type { iamRegister } from '../../../contracts/operations/accounts.contract.js';
import { LoginEvent } from '../../../contracts/operations/iam-types.js';
import type { Mailer } from '../../shared/mailer.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import { OperationsError } from '../operations.errors.js';
import { ACCOUNT_TOKENS, accountTokens } from './account-tokens.js';
import type { BotChallenge } from './bot-challenge.js';
import type { ClientInfo } from './client.js';
import type { IamService } from './iam.service.js';
import { backupCodeHash, type AccountRow, type SignInFlow } from './sign-in.js';
import { USER_COLUMNS, userData, type UserRow } from './users.js';

type Registration = ContractInput<typeof iamRegister>;

const BACKUP_CODES = 10;
const ONBOARDING = ['default_plan', 'company_size', 'industry', 'management_experience', 'heard_about_us'] as const;
const loginEvent = recordMapper<z.output<typeof LoginEvent>>(LoginEvent);

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
    await em.execute(`update "operations"."app_user" set "email_verified_at" = coalesce("email_verified_at", now()) where "id" = ?`, [
      userId,
    ]);
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
    await em.execute(
      `update "operations"."app_user" set "password_hash" = ?, "email_verified_at" = coalesce("email_verified_at", now()), "updated_at" = now() where "id" = ?`,
      [await hash(password), userId],
    );
  }

  async approveIp(em: EntityManager, token: string) {
    const { userId, payload } = await accountTokens.spend<{ ip: string | null }>(em, token, ACCOUNT_TOKENS.approveIp);
    if (payload.ip) {
      await em.execute(`insert into "operations"."allowed_ip" ("user_id", "ip") values (?, ?) on conflict do nothing`, [
        userId,
        payload.ip,
      ]);
    }
    return { done: true as const, ip: payload.ip };
  }

  async security(em: EntityManager, principal: Principal) {
    const account = await this.accountOf(em, principal);
    const [counts] = await em.execute<Array<{ left: number }>>(
      `select count(*)::int as "left" from "operations"."backup_code" where "user_id" = ? and "used_at" is null`,
      [account.id],
    );
    const ips = await em.execute<Array<{ ip: string }>>(
      `select "ip" from "operations"."allowed_ip" where "user_id" = ? order by "approved_at"`,
      [account.id],
    );
    return {
      two_factor_email: account.two_factor_email,
      totp_enabled: account.totp_enabled,
      backup_codes_left: counts?.left ?? 0,
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

  /** A new secret, sealed at rest; it waits for a confirming code. */
  async setupTotp(em: EntityManager, principal: Principal) {
    const account = await this.accountOf(em, principal);
    if (account.totp_enabled) throw OperationsError.stateConflict('The authenticator app', 'enabled', 'setup', ['disabled']);
    const secret = generateSecret();
    await em.execute(`update "operations"."app_user" set "totp_secret" = ? where "id" = ?`, [this.box.seal(secret), account.id]);
    return { secret, otpauth_url: generateURI({ issuer: 'Qantara', label: account.email, secret }) };
  }

  async enableTotp(em: EntityManager, principal: Principal, code: string) {
    const account = await this.accountOf(em, principal);
    if (account.totp_enabled || !account.totp_secret) throw OperationsError.totpNotPending();
    if (!(await this.signIn.totpMatches(account.totp_secret, code))) throw OperationsError.totpCodeInvalid();
    await em.execute(`update "operations"."app_user" set "totp_enabled" = true where "id" = ?`, [account.id]);
    return { backup_codes: await this.replaceBackupCodes(em, account.id) };
  }

  async disableTotp(em: EntityManager, principal: Principal, password: string) {
    const account = await this.accountOf(em, principal);
    await this.confirmPassword(account, password);
    await em.execute(`update "operations"."app_user" set "totp_enabled" = false, "totp_secret" = null where "id" = ?`, [account.id]);
    if (!account.two_factor_email) await em.execute(`delete from "operations"."backup_code" where "user_id" = ?`, [account.id]);
    return this.security(em, principal);
  }

  async setEmailSecondFactor(em: EntityManager, principal: Principal, enabled: boolean, password: string) {
    const account = await this.accountOf(em, principal);
    await this.confirmPassword(account, password);
    await em.execute(`update "operations"."app_user" set "two_factor_email" = ? where "id" = ?`, [enabled, account.id]);
    if (!enabled && !account.totp_enabled) await em.execute(`delete from "operations"."backup_code" where "user_id" = ?`, [account.id]);
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
    await em.execute(`delete from "operations"."backup_code" where "user_id" = ?`, [userId]);
    await em.execute(`insert into "operations"."backup_code" ("user_id", "code_hash") select ?, unnest(?::text[])`, [
      userId,
      `{${codes.map(backupCodeHash).join(',')}}`,
    ]);
    return codes;
  }

  async setIpWhitelist(em: EntityManager, principal: Principal, enabled: boolean, client: ClientInfo) {
    await em.execute(`update "operations"."app_user" set "ip_whitelist" = ? where "id" = ?`, [enabled, principal.userId]);
    if (enabled && client.ip) {
      await em.execute(`insert into "operations"."allowed_ip" ("user_id", "ip") values (?, ?) on conflict do nothing`, [
        principal.userId,
        client.ip,
      ]);
    }
    return this.security(em, principal);
  }

  async removeAllowedIp(em: EntityManager, principal: Principal, ip: string) {
    await em.execute(`delete from "operations"."allowed_ip" where "user_id" = ? and "ip" = ?`, [principal.userId, ip]);
    return this.security(em, principal);
  }

  loginHistory(em: EntityManager, principal: Principal, page: { cursor?: string; limit: number }) {
    return cursorList(
      em,
      { table: '"operations"."login_event"', where: ['"user_id" = ?'], params: [principal.userId], orderBy: 'at', direction: 'desc' },
      page,
      loginEvent,
    );
  }
}
