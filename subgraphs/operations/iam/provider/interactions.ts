import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Context } from 'koa';
import type { Interaction, Provider } from 'oidc-provider';
import { DomainError } from '../../../../contracts/errors.js';
import { iamLogin, iamResendSecondFactor, iamVerifySecondFactor } from '../../../../contracts/operations/accounts.contract.js';
import { OperationsErrorCode } from '../../../../contracts/operations/errors.js';
import { SECOND_FACTOR_METHODS, type SecondFactorMethodName } from '../../../../contracts/operations/iam-types.js';
import type { OperationContract } from '../../../../contracts/operation.js';
import type { Logger } from '../../../../runtime/logger.js';
import { BodyError, readRawBody } from '../../../../runtime/http/body.js';
import { withAfterCommit } from '../../core/after-commit.js';
import { enterTenant } from '../../core/tenancy.js';
import type { AttemptCounter } from '../attempts.js';
import type { ClientInfo } from '../client.js';
import type { PendingSecondFactor, SignInFlow, SignInStep } from '../sign-in.js';
import { grantConsentPrompt } from './grants.js';
import { loginPage, messagePage, PAGE_HEADERS, secondFactorPage } from './pages.js';

/** Where a pending second factor is kept: in the interaction itself (server side), never in the page. */
const PENDING = 'qantaraSecondFactor';
/** Interaction routes below the provider's mount: the page, and what its forms post to. */
export const INTERACTION_ROUTE = /^\/interaction\/([A-Za-z0-9_-]{1,64})(?:\/(login|second-factor|resend|abort))?\/?$/;
const FORM_LIMIT = 16 * 1024;

/** What an interaction page's form posts: the password, the second factor, a new e-mailed code, or cancel. */
export type InteractionAction = 'login' | 'second-factor' | 'resend' | 'abort';

export interface InteractionDeps {
  readonly provider: Provider;
  /** The public path of the issuer, e.g. `/oidc`: the pages' forms post under it. */
  readonly publicPath: string;
  readonly origin: () => string;
  readonly root: EntityManager;
  readonly signIn: SignInFlow;
  readonly attempts: AttemptCounter;
  readonly logger: Logger;
}

/** What every page of one interaction shows: the client's name and where its forms post. */
interface PageView {
  readonly client: string;
  readonly action: string;
  readonly abort: string;
  readonly resend: string;
  readonly secondFactorAction: string;
}

/** A page answer: the status, and the HTML. */
class Answer {
  constructor(
    readonly status: number,
    readonly html: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/**
 * The provider's interaction pages (login, second factor; consent is granted at once):
 * the same sign-in as `POST /api/v1/iam/login` — `SignInFlow` with its messages, the
 * sign-in history, the IP whitelist and the second factor — and the same attempt limits,
 * counted under the same scopes (`iamLogin:ip`, `iamLogin:email`, `iamVerifySecondFactor:ip`,
 * `iamResendSecondFactor:…`) so both ways in share them. The client address is `ctx.ip` as
 * the serving app's proxy setting decides it (`TRUST_PROXY`).
 */
export class InteractionPages {
  constructor(private readonly deps: InteractionDeps) {}

  async handle(ctx: Context, uid: string, action: InteractionAction | undefined): Promise<void> {
    const answer = await this.answer(ctx, uid, action).catch((error: unknown) => {
      ((ctx.state.logger as Logger | undefined) ?? this.deps.logger).error({ err: error }, 'OpenID interaction failed');
      return new Answer(
        500,
        messagePage('Something went wrong', 'The sign-in could not be completed. Go back to the application and try again.'),
      );
    });
    if (!answer) return;
    ctx.status = answer.status;
    ctx.type = 'html';
    ctx.set({ ...PAGE_HEADERS, ...answer.headers });
    ctx.body = answer.html;
  }

  /** The page to show, or nothing when the answer is a redirect already made. */
  private async answer(ctx: Context, uid: string, action: InteractionAction | undefined): Promise<Answer | undefined> {
    const allowed = action === undefined ? ['GET', 'HEAD'] : ['POST'];
    if (!allowed.includes(ctx.method)) {
      return new Answer(405, messagePage('Not allowed', `${ctx.method} is not allowed here.`), { Allow: allowed.join(', ') });
    }
    const interaction = await this.interaction(ctx, uid);
    if (!interaction) {
      return new Answer(
        400,
        messagePage(
          'This sign-in has expired',
          'It was finished, cancelled or left too long. Go back to the application and sign in again.',
        ),
      );
    }
    const view = await this.view(interaction);
    if (interaction.prompt.name === 'consent') {
      const grantId = await grantConsentPrompt(this.deps.provider, interaction);
      return this.finish(ctx, { consent: { grantId } });
    }
    if (interaction.prompt.name !== 'login') {
      return new Answer(400, messagePage('Unsupported request', `This provider cannot ask for “${interaction.prompt.name}”.`));
    }
    const pending = (interaction.result?.[PENDING] as PendingSecondFactor | undefined) ?? undefined;
    switch (action) {
      case undefined:
        return pending
          ? new Answer(200, secondFactorPage({ ...view, action: view.secondFactorAction, methods: pending.methods }))
          : this.loginForm(view, interaction);
      case 'abort':
        return this.finish(ctx, { error: 'access_denied', error_description: 'The user cancelled the sign-in.' }, false);
      case 'login':
        return this.login(ctx, interaction, view);
      case 'second-factor':
        return pending ? this.secondFactor(ctx, interaction, view, pending) : this.loginForm(view, interaction, 'Sign in first.', 400);
      case 'resend':
        return pending ? this.resend(ctx, view, pending) : this.loginForm(view, interaction, 'Sign in first.', 400);
    }
  }

  private async interaction(ctx: Context, uid: string): Promise<Interaction | undefined> {
    try {
      const interaction = await this.deps.provider.interactionDetails(ctx.req, ctx.res);
      return interaction.uid === uid ? interaction : undefined;
    } catch (error) {
      if ((error as { name?: string }).name === 'SessionNotFound') return undefined;
      throw error;
    }
  }

  private async view(interaction: Interaction): Promise<PageView> {
    const base = `${this.deps.publicPath}/interaction/${interaction.uid}`;
    const client = await this.deps.provider.Client.find(String(interaction.params.client_id));
    return {
      client: client?.clientName ?? client?.clientId ?? 'the application',
      action: `${base}/login`,
      abort: `${base}/abort`,
      resend: `${base}/resend`,
      secondFactorAction: `${base}/second-factor`,
    };
  }

  private loginForm(view: PageView, interaction: Interaction, error?: string, status = 200, email?: string) {
    const hint = typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined;
    return new Answer(status, loginPage({ ...view, email: email ?? hint, error }));
  }

  private async login(ctx: Context, interaction: Interaction, view: PageView) {
    const form = await this.form(ctx);
    if (!form) return new Answer(413, loginPage({ ...view, error: 'The form is too large.' }));
    const email = (form.get('email') ?? '').trim();
    const password = form.get('password') ?? '';
    if (!email || !password || email.length > 254 || password.length < 8 || password.length > 64) {
      return this.loginForm(view, interaction, 'Enter your e-mail address and a password of 8 to 64 characters.', 400, email.slice(0, 254));
    }
    try {
      await this.limit(iamLogin, ctx, { email });
      const step = await this.signIn(ctx, 'oidcLogin', (tx, client) => this.deps.signIn.password(tx, email, password, client));
      return this.afterStep(ctx, interaction, step, ['pwd']);
    } catch (error) {
      const refused = this.refusal(error);
      return new Answer(refused.status, loginPage({ ...view, email, error: refused.message }), refused.headers);
    }
  }

  private async secondFactor(ctx: Context, interaction: Interaction, view: PageView, pending: PendingSecondFactor) {
    const form = await this.form(ctx);
    const method = (form?.get('method') ?? '') as SecondFactorMethodName;
    const code = (form?.get('code') ?? '').trim();
    const page = { ...view, action: view.secondFactorAction, methods: pending.methods };
    if (!SECOND_FACTOR_METHODS.includes(method) || code.length < 4 || code.length > 32) {
      return new Answer(400, secondFactorPage({ ...page, error: 'Choose a method and enter its code.' }));
    }
    try {
      await this.limit(iamVerifySecondFactor, ctx, { challenge_id: pending.challenge_id });
      const step = await this.signIn(ctx, 'oidcVerifySecondFactor', (tx, client) =>
        this.deps.signIn.secondFactor(tx, pending.challenge_id, method, code, client),
      );
      return this.afterStep(ctx, interaction, step, ['pwd', 'mfa', 'otp']);
    } catch (error) {
      const refused = this.refusal(error);
      if (error instanceof DomainError && error.key === OperationsErrorCode.SECOND_FACTOR_CHALLENGE_INVALID) {
        // The pending sign-in is over (expired, finished or out of tries): start again with the password.
        delete (interaction.result as Record<string, unknown> | undefined)?.[PENDING];
        await interaction.persist();
        return this.loginForm(view, interaction, refused.message, refused.status);
      }
      return new Answer(refused.status, secondFactorPage({ ...page, method, error: refused.message }), refused.headers);
    }
  }

  private async resend(ctx: Context, view: PageView, pending: PendingSecondFactor) {
    const page = { ...view, action: view.secondFactorAction, methods: pending.methods };
    try {
      await this.limit(iamResendSecondFactor, ctx, { challenge_id: pending.challenge_id });
      await this.signIn(ctx, 'oidcResendSecondFactor', (tx) => this.deps.signIn.resend(tx, pending.challenge_id));
      return new Answer(
        200,
        secondFactorPage({ ...page, method: 'email', notice: 'A new code is on its way; the previous one no longer works.' }),
      );
    } catch (error) {
      const refused = this.refusal(error);
      return new Answer(refused.status, secondFactorPage({ ...page, error: refused.message }), refused.headers);
    }
  }

  /** Signed in: back to the engine with the account; a second factor pending: kept in the interaction, its page next. */
  private async afterStep(ctx: Context, interaction: Interaction, step: SignInStep, amr: string[]) {
    if (step.kind === 'signed-in') return this.finish(ctx, { login: { accountId: step.user.id, amr, remember: true } });
    interaction.result = { ...interaction.result, [PENDING]: step.pending };
    await interaction.persist();
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`${this.deps.publicPath}/interaction/${interaction.uid}`);
    return undefined;
  }

  private async finish(ctx: Context, result: Record<string, unknown>, merge = true) {
    const returnTo = await this.deps.provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: merge });
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(returnTo);
    return undefined;
  }

  /** A sign-in step in one transaction as the application role, exactly as the REST operations run it. */
  private signIn<T>(ctx: Context, operation: string, step: (tx: EntityManager, client: ClientInfo) => Promise<T>): Promise<T> {
    const client: ClientInfo = {
      ip: ctx.ip || null,
      userAgent: ctx.get('user-agent').slice(0, 500) || null,
      baseUrl: this.deps.origin(),
    };
    const requestId = (ctx.state.requestId as string | undefined) ?? randomUUID();
    return withAfterCommit(this.deps.root.fork(), this.deps.logger, async (tx) => {
      await enterTenant(tx, undefined, operation, requestId);
      return step(tx, client);
    });
  }

  /** Counts the attempt against every limit of the REST operation it mirrors, under the same scopes. */
  private async limit(contract: OperationContract, ctx: Context, fields: Readonly<Record<string, string>>): Promise<void> {
    for (const throttle of contract.throttle) {
      const by = throttle.by === 'ip' ? 'ip' : throttle.by.field;
      const subject = throttle.by === 'ip' ? ctx.ip || 'unknown' : (fields[throttle.by.field] ?? '').trim().toLowerCase();
      await this.deps.attempts.hit(`${contract.name}:${by}`, subject, throttle.limit, throttle.windowSeconds);
    }
  }

  /** A refusal's message is shown as it is (it is written for people); anything else is logged and said generically. */
  private refusal(error: unknown): { status: number; message: string; headers: Record<string, string> } {
    if (!(error instanceof DomainError)) throw error;
    const retryAfter = error.meta.retryAfter;
    return {
      status: error.status,
      message: error.message,
      headers: typeof retryAfter === 'number' ? { 'Retry-After': String(retryAfter) } : {},
    };
  }

  /** The posted form (`application/x-www-form-urlencoded`), or nothing when it is too large. */
  private async form(ctx: Context): Promise<URLSearchParams | undefined> {
    try {
      return new URLSearchParams((await readRawBody(ctx, FORM_LIMIT)).toString('utf8'));
    } catch (error) {
      if (error instanceof BodyError) return undefined;
      throw error;
    }
  }
}
