import * as A from '../../../contracts/operations/accounts.contract.js';
import * as K from '../../../contracts/operations/api-keys.contract.js';
import {
  iamBanUser,
  iamCreateUser,
  iamJwks,
  iamListUsers,
  iamLogout,
  iamMe,
  iamRefresh,
  iamUnbanUser,
  iamUpdateUser,
} from '../../../contracts/operations/iam.contract.js';
import type { Config } from '../../../runtime/config.js';
import type { SubgraphContext } from '../../shared/context.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { AccountsService } from './accounts.service.js';
import { ApiKeysService } from './api-keys.service.js';
import { clientOf } from './client.js';
import { ExternalSignInService } from './external-sign-in.service.js';
import { IamService } from './iam.service.js';
import { SigningKeys } from './signing-keys.js';

/** Sign-in, accounts, tokens, users and API keys. */
export function iamOperations(services: Services, config: Config): Implementation[] {
  const iam = services.get(IamService);
  const keys = services.get(SigningKeys);
  const accounts = services.get(AccountsService);
  const external = services.get(ExternalSignInService);
  const apiKeys = services.get(ApiKeysService);
  const fallbackBase = config.publicBaseUrl ?? `http://localhost:${config.port}`;
  const client = (ctx: SubgraphContext) => clientOf(ctx, fallbackBase);
  return [
    implement(A.iamLogin, (input, { ctx }) => iam.login(ctx.em, input.email, input.password, client(ctx))),
    implement(A.iamVerifySecondFactor, (input, { ctx }) => iam.verifySecondFactor(ctx.em, input, client(ctx))),
    implement(A.iamResendSecondFactor, async (input, { ctx }) => {
      await iam.signIn.resend(ctx.em, input.challenge_id);
      return { accepted: true as const };
    }),
    implement(iamRefresh, (input, { ctx }) => iam.refresh(ctx.em, input.refresh_token)),
    implement(iamLogout, (_input, { ctx, caller }) => iam.logout(ctx.em, caller)),
    implement(iamMe, (_input, { ctx, caller }) => iam.me(ctx.em, caller)),
    implement(iamCreateUser, (input, { ctx, caller }) => iam.createUser(ctx.em, caller, input, client(ctx))),
    implement(iamListUsers, (input, { ctx, caller }) => iam.listUsers(ctx.em, caller, input)),
    implement(iamBanUser, (input, { ctx, caller }) => iam.setBanned(ctx.em, caller, input.id, true)),
    implement(iamUnbanUser, (input, { ctx, caller }) => iam.setBanned(ctx.em, caller, input.id, false)),
    implement(iamUpdateUser, (input, { ctx, caller }) => iam.assignAccess(ctx.em, caller, input.id, input)),
    implement(iamJwks, () => keys.jwks()),

    implement(A.iamRegister, (input, { ctx }) => accounts.register(ctx.em, input, client(ctx))),
    implement(A.iamChallenge, () => accounts.challenge()),
    implement(A.iamChangePassword, (input, { ctx, caller }) =>
      accounts.changePassword(ctx.em, caller, input.current_password, input.new_password),
    ),
    implement(A.iamProfile, (_input, { ctx, caller }) => accounts.profile(ctx.em, caller)),
    implement(A.iamUpdateProfile, (input, { ctx, caller }) => accounts.updateProfile(ctx.em, caller, input)),
    implement(A.iamChangeEmail, (input, { ctx, caller }) => accounts.changeEmail(ctx.em, caller, input, client(ctx))),
    implement(A.iamConfirmEmailChange, (input, { ctx }) => accounts.confirmEmailChange(ctx.em, input.token)),
    implement(A.iamSessions, (input, { ctx, caller }) => iam.sessions(ctx.em, caller, input)),
    implement(A.iamRevokeSession, (input, { ctx, caller }) => iam.revokeSession(ctx.em, caller, input.id)),
    implement(A.iamRevokeOtherSessions, (_input, { ctx, caller }) => iam.revokeOtherSessions(ctx.em, caller)),
    implement(A.iamVerifyEmail, (input, { ctx }) => accounts.verifyEmail(ctx.em, input.token)),
    implement(A.iamResendVerification, (input, { ctx }) => accounts.resendVerification(ctx.em, input.email, client(ctx))),
    implement(A.iamForgotPassword, (input, { ctx }) => accounts.forgotPassword(ctx.em, input.email, client(ctx))),
    implement(A.iamResetPassword, (input, { ctx }) => accounts.resetPassword(ctx.em, input.token, input.password)),
    implement(A.iamSetPassword, (input, { ctx }) => accounts.setInvitedPassword(ctx.em, input.token, input.password)),
    implement(A.iamApproveIp, (input, { ctx }) => accounts.approveIp(ctx.em, input.token)),
    implement(A.iamSecurity, (_input, { ctx, caller }) => accounts.security(ctx.em, caller)),
    implement(A.iamSetupTotp, (_input, { ctx, caller }) => accounts.setupTotp(ctx.em, caller)),
    implement(A.iamEnableTotp, (input, { ctx, caller }) => accounts.enableTotp(ctx.em, caller, input.code)),
    implement(A.iamDisableTotp, (input, { ctx, caller }) => accounts.disableTotp(ctx.em, caller, input.password)),
    implement(A.iamSetEmailSecondFactor, (input, { ctx, caller }) =>
      accounts.setEmailSecondFactor(ctx.em, caller, input.enabled, input.password),
    ),
    implement(A.iamRegenerateBackupCodes, (input, { ctx, caller }) => accounts.regenerateBackupCodes(ctx.em, caller, input.password)),
    implement(A.iamSetIpWhitelist, (input, { ctx, caller }) => accounts.setIpWhitelist(ctx.em, caller, input.enabled, client(ctx))),
    implement(A.iamRemoveAllowedIp, (input, { ctx, caller }) => accounts.removeAllowedIp(ctx.em, caller, input.ip)),
    implement(A.iamLoginHistory, (input, { ctx, caller }) => accounts.loginHistory(ctx.em, caller, input)),

    implement(A.iamIdentityProviders, () => external.list()),
    implement(A.iamStartExternalSignIn, (input, { ctx }) => external.start(ctx.em, input.provider, input, client(ctx))),
    implement(A.iamExternalSignInCallback, (input, { ctx }) => external.callback(ctx.em, input.provider, input, client(ctx))),
    implement(A.iamExchangeExternalSignIn, (input, { ctx }) => external.exchange(ctx.em, input.code)),

    implement(K.iamListApiKeys, (input, { ctx, caller }) => apiKeys.list(ctx.em, caller, input)),
    implement(K.iamCreateApiKey, (input, { ctx, caller }) => apiKeys.create(ctx.em, caller, input)),
    implement(K.iamRevokeApiKey, (input, { ctx, caller }) => apiKeys.revoke(ctx.em, caller, input.keyId)),
    implement(K.iamRotateApiKey, (input, { ctx, caller }) => apiKeys.rotate(ctx.em, caller, input.keyId)),
  ];
}
