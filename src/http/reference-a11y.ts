/**
 * The accessibility patch of the reference page (`{base}/docs/assets/a11y.js`): Scalar's API
 * reference (1.72) leaves a few serious axe violations in its markup that no configuration removes.
 * This script, served by us (a file, so the CSP needs no inline script), fixes them after Scalar
 * renders, and again whenever Scalar adds or re-renders nodes (a MutationObserver), touching only
 * attributes, never moving or removing Scalar's nodes (Vue keeps references to them):
 *
 * - the auth box's inputs are `contenteditable` divs with `role="combobox"` but no name and no
 *   `aria-expanded`/`aria-controls` (axe: aria-input-field-name, aria-required-attr): their visible
 *   `<label for>` points at the wrapper, so the editor gets `aria-labelledby` that label, and the
 *   role `textbox` (what it is: a text field; its variable suggestions keep `aria-autocomplete`);
 * - the try-it's code views (CodeMirror: request body, response) are unnamed text boxes
 *   (aria-input-field-name), and a read-only one scrolls without a focusable element
 *   (scrollable-region-focusable): they get a name, and the read-only scroller `tabindex="0"`;
 * - icon-only buttons (copy, the scopes disclosure's chevron) have no name (button-name): named
 *   after what they do, or after the disclosure's text button, which shares their id; a copy
 *   button's `aria-controls` that names no element is dropped (aria-valid-attr-value);
 * - "More information" buttons carry `role="none"`, which a focusable button cannot take and which
 *   forbids their `aria-label` (aria-prohibited-attr): the role is removed;
 * - an operations list in a scrolling card cannot be reached by keyboard (its entries are anchors
 *   without href) (scrollable-region-focusable): the list becomes focusable (`tabindex="0"`).
 *
 *
 * And one that is not accessibility: the try-it's OAuth box has a "Metadata URL" row whose
 * placeholder (`https://example.com/.well-known/…`) reads like a setting of this server, which
 * publishes no OAuth metadata (the token URL is the row above it). An empty one is hidden (an inline
 * style on its row; issue 28).
 *
 * test/http/docs-browser.test.ts runs axe with no exemption on the page, and again with the
 * try-it open after a real request, so a new Scalar version that brings another violation fails
 * there, and one that fixes these leaves this script doing nothing.
 */
export const REFERENCE_A11Y_JS = `(() => {
  let ids = 0;
  const idOf = (el) => el.id || (el.id = 'a11y-' + ++ids);
  /** The text a screen reader reads for an element: its text, less aria-hidden and undisplayed parts. */
  function spokenText(el) {
    let text = '';
    for (const node of el.childNodes) {
      if (node.nodeType === 3) text += node.textContent;
      else if (
        node.nodeType === 1 &&
        node.getAttribute('aria-hidden') !== 'true' &&
        getComputedStyle(node).display !== 'none'
      ) {
        text += spokenText(node);
      }
    }
    return text.trim();
  }
  const named = (el) =>
    spokenText(el) !== '' || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title');

  function labelEditors() {
    for (const editor of document.querySelectorAll('[contenteditable="true"][role="combobox"]')) {
      editor.setAttribute('role', 'textbox');
      const wrapper = editor.closest('[id]');
      const label = wrapper && document.querySelector('label[for="' + CSS.escape(wrapper.id) + '"]');
      if (label) editor.setAttribute('aria-labelledby', idOf(label));
      else if (editor.dataset.placeholder) editor.setAttribute('aria-label', editor.dataset.placeholder);
    }
    for (const code of document.querySelectorAll('.cm-content[role="textbox"]')) {
      const readOnly = code.getAttribute('contenteditable') === 'false';
      if (!code.hasAttribute('aria-label') && !code.hasAttribute('aria-labelledby')) code.setAttribute('aria-label', readOnly ? 'Code (read only)' : 'Code editor');
      const scroller = code.closest('.cm-scroller');
      if (readOnly && scroller && scroller.getAttribute('tabindex') !== '0') scroller.setAttribute('tabindex', '0');
    }
  }
  function nameButtons() {
    const buttons = [...document.querySelectorAll('button')];
    for (const button of buttons) {
      if (button.getAttribute('role') === 'none') button.removeAttribute('role');
      const controls = button.getAttribute('aria-controls');
      if (controls && !document.getElementById(controls)) button.removeAttribute('aria-controls');
      if (named(button)) continue;
      const twin = button.id && buttons.find((b) => b !== button && b.id === button.id && spokenText(b) !== '');
      const name = twin
        ? 'Show or hide: ' + spokenText(twin)
        : /copy/.test(button.className)
          ? 'Copy to clipboard'
          : button.hasAttribute('aria-expanded')
            ? 'Show or hide details'
            : null;
      if (name) button.setAttribute('aria-label', name);
    }
  }
  function focusableLists() {
    for (const list of document.querySelectorAll('ul.endpoints:not([tabindex])')) list.setAttribute('tabindex', '0');
  }
  function hideMetadataUrl() {
    for (const label of document.querySelectorAll('label')) {
      if (label.textContent.trim() !== 'Metadata URL') continue;
      const row = label.closest('tr');
      const editor = row && row.querySelector('[contenteditable="true"]');
      if (row && editor && editor.textContent.trim() === '' && row.style.display !== 'none') row.style.display = 'none';
    }
  }
  let queued = false;
  function patch() {
    queued = false;
    labelEditors();
    nameButtons();
    focusableLists();
    hideMetadataUrl();
  }
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(patch);
  }).observe(document.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['role', 'aria-controls', 'contenteditable', 'tabindex'],
  });
  patch();
})();
`;
