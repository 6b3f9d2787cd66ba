import { ApiError, SignedOut, workspaceApi } from './api.js';
import { Session } from './auth.js';
import { byId, fill, h } from './dom.js';
import { liveUpdates } from './live.js';
import * as views from './views.js';

/**
 * The console: sign in, cases with the assistant's replies arriving live, research, credits
 * and API keys of the signed-in user's workspace. Routes are `#/cases`, `#/cases/<id>`,
 * `#/credits` and `#/keys`.
 */

const SECTIONS = ['cases', 'credits', 'keys'];
const app = {
  session: undefined,
  api: undefined,
  live: undefined,
  threadId: undefined,
  stopWatching: undefined,
  reload: undefined,
  dirty: false,
};

/** Shows a message (text, or nodes made with `h`) in the notice line. */
function notify(message, kind = 'info') {
  const notice = byId('notice');
  notice.className = kind;
  fill(notice, message);
}

/** Shows what went wrong in words; a lost session goes back to signing in. */
function failed(error) {
  if (error instanceof SignedOut) return showSignedOut('Your session ended; sign in again.');
  if (error instanceof ApiError && error.status === 402) return notify(views.notEnoughCredits(error.body ?? {}), 'error');
  notify(error instanceof Error ? error.message : String(error), 'error');
}

const guarded = (action) => async (event) => {
  event?.preventDefault?.();
  try {
    await action(event);
  } catch (error) {
    failed(error);
  }
};

function showSignedOut(message) {
  app.stopWatching?.();
  byId('nav').hidden = true;
  fill(byId('who'));
  for (const section of SECTIONS) byId(section).hidden = true;
  byId('signed-out').hidden = false;
  if (message) notify(message);
}

function parseRoute() {
  const [section = 'cases', id] = location.hash.replace(/^#\/?/, '').split('/');
  return { section: SECTIONS.includes(section) ? section : 'cases', id: id ? decodeURIComponent(id) : undefined };
}

async function route() {
  const { section, id } = parseRoute();
  notify('');
  for (const name of SECTIONS) byId(name).hidden = name !== section;
  for (const link of byId('nav').querySelectorAll('a')) {
    if (link.getAttribute('href') === `#/${section}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  if (section !== 'cases' || id !== app.threadId) watch(undefined);
  if (section === 'cases') await showCases(id);
  if (section === 'credits') await showCredits();
  if (section === 'keys') await showKeys();
}

async function showCases(id) {
  const { items } = await app.api.threads();
  fill(byId('case-list'), views.caseList(items, id));
  if (!id) {
    fill(byId('case'), h('p', { class: 'muted' }, 'Pick a case, or describe a new idea to start one.'));
    return;
  }
  watch(id);
  await showCase(id);
}

async function showCase(id) {
  const view = await app.api.thread(id);
  if (app.threadId !== id) return; // another case was opened meanwhile
  const focused = document.activeElement?.id;
  const draft = byId('reply-message')?.value ?? '';
  fill(
    byId('case'),
    views.caseView(view, {
      startResearch: guarded(async () => {
        const missing = views.missingDetails(view.gapAssessment);
        if (missing && !confirm(`This case still needs details. Missing: ${missing}. Start research anyway, for 30 credits?`)) {
          return notify(`Research not started. Add ${missing} in a reply, then start research.`);
        }
        const started = await app.api.startResearch(id);
        notify(
          started.reused
            ? 'A report of exactly this idea exists already: shown below, nothing charged.'
            : 'Research started (30 credits). The report appears here when it is ready.',
        );
        await showCase(id);
      }),
      reply: guarded(async (event) => {
        const field = event.target.elements.message;
        await app.api.append(id, field.value);
        field.value = '';
        await refresh(id);
      }),
    }),
  );
  byId('reply-message').value = draft;
  if (focused) byId(focused)?.focus();
}

/** The case and the list again: one reload at a time, and one more if events came during it. */
function refresh(id) {
  app.dirty = true;
  app.reload ??= (async () => {
    try {
      while (app.dirty && app.threadId === id) {
        app.dirty = false;
        const { items } = await app.api.threads();
        fill(byId('case-list'), views.caseList(items, id));
        await showCase(id);
      }
    } catch (error) {
      failed(error);
    } finally {
      app.reload = undefined;
    }
  })();
  return app.reload;
}

/** Watches one case live (or none): every event of it reloads the case. */
function watch(id) {
  if (id === app.threadId && app.stopWatching) return;
  app.stopWatching?.();
  app.stopWatching = undefined;
  app.threadId = id;
  if (!id) return;
  app.stopWatching = app.live.watch(
    id,
    0,
    () => refresh(id),
    (error) => notify(`Live updates stopped: ${error.message} Reload the page to resume.`, 'error'),
  );
}

async function showCredits() {
  const billing = await app.api.billing();
  fill(
    byId('credits'),
    views.credits(billing, {
      topUp: guarded(async (event) => {
        const usd = Number(new FormData(event.target).get('usd'));
        const back = `${app.session.redirectUri}#/credits`;
        const session = await app.api.topUp(usd, back, back);
        if (session.sandbox) {
          notify(`${session.creditQuantity} test credits added.`);
          return showCredits();
        }
        location.assign(session.url);
      }),
    }),
  );
}

async function showKeys(issued) {
  const { apiKeys } = await app.api.keys();
  const dismiss = () => showKeys().catch(failed);
  const rotate = guarded(async (key) => showKeys(await app.api.rotateKey(key.id)));
  const revoke = guarded(async (key) => {
    if (!confirm(`Revoke “${key.name}”? Calls with it stop working at once.`)) return;
    await app.api.revokeKey(key.id);
    notify(`Key “${key.name}” revoked.`);
    await showKeys();
  });
  fill(
    byId('keys'),
    h('h2', {}, 'API keys'),
    h('p', { class: 'muted' }, 'Keys call the REST API (/v1/…) and MCP (/mcp) for this workspace, with the scopes you give them.'),
    issued ? views.secret(issued, dismiss) : null,
    views.newKeyForm({
      createKey: guarded(async (event) => {
        const form = new FormData(event.target);
        const scopes = form.getAll('scopes');
        if (scopes.length === 0) return notify('Choose at least one scope.', 'error');
        await showKeys(await app.api.createKey(form.get('name'), scopes, form.get('mode')));
      }),
    }),
    views.keyTable(apiKeys, { rotate: (key) => rotate(key), revoke: (key) => revoke(key) }),
  );
  if (issued) byId('new-secret')?.focus?.();
}

/**
 * Has the workspace API refuse this person's access tokens from now on, then forgets them and
 * ends the provider's session. The tokens are forgotten even when the API cannot be reached.
 */
async function signOut() {
  app.stopWatching?.();
  await app.api.signOut().catch(() => undefined);
  app.session.signOut();
}

async function start() {
  try {
    app.session = await Session.open();
  } catch (error) {
    return notify(`Sign-in is unavailable: ${error.message}`, 'error');
  }
  byId('sign-in').addEventListener('click', () => app.session.signIn(location.hash));
  try {
    await app.session.completeSignIn();
  } catch (error) {
    notify(error.message, 'error');
  }
  if (!app.session.signedIn && app.session.resumable) return app.session.signIn(location.hash);
  if (!app.session.signedIn) return showSignedOut();
  app.api = workspaceApi(app.session);
  app.live = liveUpdates(app.session);
  byId('signed-out').hidden = true;
  byId('nav').hidden = false;
  const person = app.session.person;
  fill(
    byId('who'),
    h('span', { dir: 'auto', title: person.email }, person.name),
    h('button', { type: 'button', id: 'sign-out', onclick: signOut }, 'Sign out'),
  );
  byId('new-case').addEventListener(
    'submit',
    guarded(async (event) => {
      const field = event.target.elements.message;
      const accepted = await app.api.createThread(field.value);
      field.value = '';
      location.hash = `#/cases/${accepted.thread.id}`;
    }),
  );
  window.addEventListener('hashchange', () => route().catch(failed));
  await route().catch(failed);
}

void start();
