/* global document, FormData, Worker, fetch */
// The registration form: the ALTCHA widget (loaded first, below) solves the proof of work in a
// worker served by Qantara; the form is sent as JSON and the answer shown in #outcome.
import './altcha.js';

const form = document.getElementById('register');
const outcome = document.getElementById('outcome');
globalThis.$altcha.algorithms.set('SHA-256', () => new Worker(form.dataset.worker));

const say = (text, kind) => {
  outcome.textContent = text;
  outcome.dataset.kind = kind;
};

/** The problem's field messages, or its detail. */
function describe(problem) {
  if (Array.isArray(problem.errors) && problem.errors.length > 0) {
    return problem.errors.map((error) => `${error.field}: ${error.message}`).join('; ');
  }
  return problem.detail || problem.title || 'The registration was refused.';
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const fields = Object.fromEntries(new FormData(form));
  if (!fields.challenge_token) {
    say('Tick “I’m not a robot” first and wait until it is verified.', 'error');
    return;
  }
  say('Creating the account…', 'pending');
  const response = await fetch(form.dataset.action, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(fields),
  });
  const body = await response.json().catch(() => ({}));
  if (response.status === 201) {
    form.reset();
    say(`Done. We mailed a confirmation link to ${body.user.email}.`, 'done');
    return;
  }
  say(describe(body), 'error');
  // A solution is taken once: a refused attempt needs a new one.
  document.querySelector('altcha-widget').reset();
});
