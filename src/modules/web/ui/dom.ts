/**
 * The pages' one DOM helper: elements from a tag, attributes and children, never from HTML text, so
 * nothing a server answer contains can become markup (no innerHTML anywhere).
 *
 * @example
 * h('button', { type: 'button', onclick: () => save() }, 'Save')
 */
export type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
  }
}

/** Replaces an element's children. */
export function replace(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  append(el, children);
}

let ids = 0;
/** A unique id for label/input pairs. */
export const uid = (prefix: string) => `${prefix}-${++ids}`;

/** A labelled form field. */
export function field(
  label: string,
  input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
): HTMLElement {
  input.id ||= uid('f');
  return h('div', { class: 'field' }, h('label', { for: input.id }, label), input);
}

/** A select whose value is always one of its options' (the type a request body wants). */
export interface Select<T extends string> extends HTMLSelectElement {
  value: T;
}

export function select<T extends string>(name: string, options: [T, string][], value?: string): Select<T> {
  const s = h('select', { name }, ...options.map(([v, text]) => h('option', { value: v }, text)));
  if (value !== undefined) s.value = value;
  return s as Select<T>;
}

/**
 * A table with a caption and header row. `empty` fills its body when there is no row: "Nothing
 * yet." unless the page says better (a filter that matches nothing says so: widgets.ts `noMatch`).
 */
export function table(
  caption: string,
  head: string[],
  rows: (Child | Child[])[][],
  empty: Child | Child[] = 'Nothing yet.',
): HTMLElement {
  // A table wider than the screen scrolls inside its wrapper: the wrapper is a named region a
  // keyboard can focus and scroll (axe's scrollable-region-focusable; it failed on the console's
  // audit page whenever a long row made the table scroll).
  return h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-label': caption, tabindex: '0' },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, ...head.map((c) => h('th', { scope: 'col' }, c)))),
      h(
        'tbody',
        {},
        rows.length === 0
          ? h('tr', {}, h('td', { colspan: head.length, class: 'empty' }, empty))
          : rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c)))),
      ),
    ),
  );
}

/** A message area announced to screen readers. */
export function status(text: string, kind: 'info' | 'error' = 'info'): HTMLElement {
  return h('p', { class: `status ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** Asks for confirmation in a modal <dialog>; resolves true when confirmed. */
export function confirmDialog(question: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h('dialog', { 'aria-labelledby': 'confirm-title', class: 'confirm' });
    const close = (answer: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    append(dialog, [
      h('h2', { id: 'confirm-title' }, question),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'danger', onclick: () => close(true) }, confirmLabel),
        h('button', { type: 'button', onclick: () => close(false) }, 'Cancel'),
      ),
    ]);
    dialog.addEventListener('cancel', () => close(false));
    document.body.append(dialog);
    dialog.showModal();
  });
}

export const money = (n: number, currency: string) =>
  `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })} ${currency}`;
