/**
 * Building the page without HTML strings: every text goes in as a text node, so nothing a
 * user or the service wrote can become markup.
 */

/** An element with attributes (`on…` functions become listeners) and children (strings become text). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.flat(Infinity).filter((child) => child !== undefined && child !== null && child !== false));
  return element;
}

export const byId = (id) => document.getElementById(id);

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren(...children.flat(Infinity).filter((child) => child !== undefined && child !== null && child !== false));
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A `<time>` for an ISO date-time, shown in the reader's locale. */
export const time = (iso) => (iso ? h('time', { datetime: iso }, dateTime.format(new Date(iso))) : '—');
