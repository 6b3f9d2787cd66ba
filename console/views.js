import { h, time } from './dom.js';

/** What each part of the console shows, from the workspace API's answers; handlers come from app.js. */

const FIELD_LABELS = {
  ideaSummary: 'Idea',
  targetUsers: 'Target users',
  problem: 'Problem',
  solution: 'Solution',
  monetization: 'Monetization',
  competitors: 'Competitors',
  differentiation: 'Differentiation',
  platform: 'Platform',
};
const READINESS = { ready: 'Ready for research', needs_idea: 'Needs an idea', needs_details: 'Needs details' };
export const SCOPES = ['threads_read', 'threads_write', 'research_write', 'billing_read', 'billing_write', 'api_keys_admin'];

const label = (field) => FIELD_LABELS[field] ?? field;
/** User and service text: its direction follows its own first strong character (Arabic reads right to left). */
const text = (tag, value, attributes = {}) => h(tag, { dir: 'auto', ...attributes }, value);

export function caseList(items, selectedId) {
  if (items.length === 0) return h('p', { class: 'muted' }, 'No cases yet.');
  return h(
    'ul',
    { class: 'case-list' },
    items.map((item) =>
      h(
        'li',
        {},
        h(
          'a',
          { href: `#/cases/${item.id}`, 'aria-current': item.id === selectedId ? 'page' : undefined },
          text('span', item.title || 'Untitled case', { class: 'title' }),
          h(
            'span',
            { class: 'meta' },
            h('span', { class: `badge ${item.readinessStatus}` }, READINESS[item.readinessStatus]),
            item.assistantPending ? h('span', { class: 'badge pending' }, 'replying…') : null,
            item.latestCompletedReportId ? h('span', { class: 'badge has-report' }, 'report') : null,
          ),
        ),
      ),
    ),
  );
}

/** What a case lacks before research, in words (`Target users, Problem`); undefined when nothing is missing. */
export function missingDetails(gaps) {
  if (gaps.readinessStatus !== 'needs_details' || gaps.missingFields.length === 0) return undefined;
  return gaps.missingFields.map(label).join(', ');
}

/** A 402 in words, pointing at this console's own top-up. */
export function notEnoughCredits(body) {
  const { requiredCredits: needs, creditBalance: holds } = body;
  const amounts = Number.isInteger(needs) && Number.isInteger(holds) ? ` This needs ${needs} credits and your workspace has ${holds}.` : '';
  return [`Not enough credits.${amounts} `, h('a', { href: '#/credits' }, 'Add credits on the Credits page'), '.'];
}

function readiness(gaps) {
  const missing = gaps.missingFields.map(label).join(', ');
  return h(
    'div',
    { class: 'readiness', 'data-status': gaps.readinessStatus },
    h('p', {}, h('strong', {}, 'Readiness: '), READINESS[gaps.readinessStatus], missing ? ` — missing ${missing}` : ''),
    h('progress', { max: '1', value: String(gaps.completeness), 'aria-label': 'Completeness' }),
    gaps.nextQuestion ? text('p', gaps.nextQuestion, { class: 'muted' }) : null,
  );
}

function anamnesis(summary) {
  const rows = Object.keys(FIELD_LABELS)
    .map((field) => [field, Array.isArray(summary[field]) ? summary[field].join(', ') : summary[field]])
    .filter(([, value]) => value);
  if (rows.length === 0) return null;
  return h(
    'details',
    { class: 'anamnesis' },
    h('summary', {}, 'What the assistant understood'),
    h(
      'dl',
      {},
      rows.map(([field, value]) => [h('dt', {}, label(field)), text('dd', value)]),
    ),
  );
}

function messages(list) {
  return h(
    'ol',
    { class: 'messages', 'aria-live': 'polite', 'aria-label': 'Conversation' },
    list.map((message) =>
      h(
        'li',
        { class: `message ${message.role}`, 'data-status': message.status, 'data-id': message.id },
        h('span', { class: 'role' }, message.role === 'user' ? 'You' : 'Assistant', ' · ', time(message.createdAt)),
        text('p', message.content),
      ),
    ),
  );
}

function research(view) {
  const runs = view.runs.map((run) =>
    h(
      'li',
      { class: `run ${run.status}` },
      `Run ${run.status}`,
      run.refunded ? ' (credits refunded)' : '',
      run.failure ? text('span', ` — ${run.failure}`) : '',
      ' · ',
      time(run.createdAt),
    ),
  );
  const reports = view.thread.reports.map((report) =>
    h(
      'article',
      { class: 'report', 'data-id': report.id },
      h('h4', {}, 'Report of ', time(report.completedAt)),
      text('p', report.summaryText),
    ),
  );
  return h(
    'section',
    { class: 'research', 'aria-labelledby': 'research-title' },
    h('h3', { id: 'research-title' }, 'Research'),
    view.reportStaleness.isStale ? h('p', { class: 'muted' }, 'The idea changed since the latest report.') : null,
    runs.length ? h('ul', { class: 'runs' }, runs) : null,
    reports.length ? reports : h('p', { class: 'muted' }, 'No report yet.'),
  );
}

export function caseView(view, handlers) {
  const canStart = view.gapAssessment.readinessStatus !== 'needs_idea';
  const title = view.anamnesis.ideaSummary || 'Untitled case';
  return [
    text('h2', title, { id: 'case-title' }),
    readiness(view.gapAssessment),
    h(
      'p',
      { class: 'actions' },
      h('button', { type: 'button', id: 'start-research', disabled: !canStart, onclick: handlers.startResearch }, 'Start research'),
      h('span', { class: 'muted' }, ' 30 credits; a report of exactly this idea is reused for free.'),
    ),
    anamnesis(view.anamnesis),
    messages(view.messages),
    h(
      'form',
      { id: 'reply', onsubmit: handlers.reply },
      h('label', { for: 'reply-message' }, 'Your message'),
      h('textarea', { id: 'reply-message', name: 'message', dir: 'auto', required: true, maxlength: '8000', rows: '3' }),
      h('button', { type: 'submit' }, 'Send'),
    ),
    research(view),
  ];
}

export function credits(billing, handlers) {
  return [
    h('h2', {}, 'Credits'),
    h('p', { class: 'balance' }, h('span', { id: 'credit-balance' }, String(billing.creditBalance)), ' credits'),
    h(
      'p',
      { class: 'muted' },
      `1 USD buys ${100 / billing.pricePer100CreditsUsd} credits. A chat turn costs ${billing.chatTurnMaxReserveCredits} credit, a research run ${billing.researchRunPriceCredits}.`,
    ),
    h(
      'form',
      { id: 'top-up', onsubmit: handlers.topUp },
      h(
        'fieldset',
        {},
        h('legend', {}, 'Top up'),
        billing.topUpOptions.map((option, index) =>
          h(
            'label',
            { class: 'choice' },
            h('input', { type: 'radio', name: 'usd', value: String(option.usdQuantity), checked: index === 0 }),
            ` ${option.usdQuantity} USD — ${option.creditQuantity} credits`,
          ),
        ),
      ),
      h('button', { type: 'submit' }, 'Top up'),
      h('span', { class: 'muted' }, ' You pay on the payment provider’s page, then come back here.'),
    ),
  ];
}

export function newKeyForm(handlers) {
  return h(
    'form',
    { id: 'new-key', onsubmit: handlers.createKey },
    h('h3', {}, 'Create a key'),
    h('label', { for: 'key-name' }, 'Name'),
    h('input', { id: 'key-name', name: 'name', required: true, maxlength: '100' }),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Scopes (give a key the least it needs)'),
      SCOPES.map((scope) => h('label', { class: 'choice' }, h('input', { type: 'checkbox', name: 'scopes', value: scope }), ` ${scope}`)),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Mode'),
      h('label', { class: 'choice' }, h('input', { type: 'radio', name: 'mode', value: 'live', checked: true }), ' live'),
      h(
        'label',
        { class: 'choice' },
        h('input', { type: 'radio', name: 'mode', value: 'test' }),
        ' test (sandbox: its own balance and cases, offline assistant, top-ups without payment)',
      ),
    ),
    h('button', { type: 'submit' }, 'Create key'),
  );
}

/** A secret, shown this once. */
export function secret(issued, dismiss) {
  return h(
    'div',
    { class: 'secret', role: 'alert' },
    h('p', {}, h('strong', {}, `Key “${issued.name}”: `), 'copy it now; it is not shown again.'),
    h('code', { id: 'new-secret' }, issued.key),
    h('button', { type: 'button', onclick: () => navigator.clipboard?.writeText(issued.key) }, 'Copy'),
    h('button', { type: 'button', onclick: dismiss }, 'Done'),
  );
}

export function keyTable(keys, handlers) {
  if (keys.length === 0) return h('p', { class: 'muted' }, 'No keys yet.');
  return h(
    'table',
    { class: 'keys' },
    h('caption', {}, 'Keys of this workspace'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Name', 'Key', 'Mode', 'Scopes', 'Status', 'Created', 'Last used', ''].map((head) => h('th', { scope: 'col' }, head)),
      ),
    ),
    h(
      'tbody',
      {},
      keys.map((key) =>
        h(
          'tr',
          { 'data-id': key.id, 'data-status': key.status },
          text('td', key.name),
          h('td', {}, h('code', {}, `${key.prefix}…`)),
          h('td', {}, key.mode),
          h('td', {}, key.scopes.join(' ')),
          h('td', { class: 'status' }, key.status),
          h('td', {}, time(key.createdAt)),
          h('td', {}, time(key.lastUsedAt)),
          h(
            'td',
            { class: 'row-actions' },
            key.status === 'active'
              ? [
                  h('button', { type: 'button', onclick: () => handlers.rotate(key), 'aria-label': `Rotate ${key.name}` }, 'Rotate'),
                  h(
                    'button',
                    { type: 'button', class: 'danger', onclick: () => handlers.revoke(key), 'aria-label': `Revoke ${key.name}` },
                    'Revoke',
                  ),
                ]
              : null,
          ),
        ),
      ),
    ),
  );
}
