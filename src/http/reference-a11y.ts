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
 * - the chevron button of the scopes disclosure has no text (button-name): it is named after the
 *   disclosure's text button, which shares its id;
 * - an operations list in a scrolling card cannot be reached by keyboard (its entries are anchors
 *   without href) (scrollable-region-focusable): the list becomes focusable (`tabindex="0"`);
 * - any other icon-only button gets a name from its `title` or from what it does (copy).
 *
 * test/foundation/docs-browser.test.ts runs axe on the rendered page with no exemption, so a new
 * Scalar version that brings another violation fails there, and one that fixes these leaves this
 * script doing nothing.
 */
export const REFERENCE_A11Y_JS = `(() => {
  let labels = 0;
  function labelEditors(root) {
    for (const editor of root.querySelectorAll('[contenteditable="true"][role="combobox"]')) {
      editor.setAttribute('role', 'textbox');
      const wrapper = editor.closest('[id]');
      const label = wrapper && document.querySelector('label[for="' + CSS.escape(wrapper.id) + '"]');
      if (label) {
        if (!label.id) label.id = 'a11y-label-' + ++labels;
        editor.setAttribute('aria-labelledby', label.id);
      } else if (editor.dataset.placeholder && !editor.hasAttribute('aria-label')) {
        editor.setAttribute('aria-label', editor.dataset.placeholder);
      }
    }
  }
  function hasName(button) {
    return (
      button.textContent.trim() !== '' ||
      button.hasAttribute('aria-label') ||
      button.hasAttribute('aria-labelledby') ||
      button.hasAttribute('title')
    );
  }
  function nameButtons(root) {
    for (const button of root.querySelectorAll('button')) {
      if (hasName(button)) continue;
      const twin = button.id && [...document.querySelectorAll('button')].find(
        (b) => b !== button && b.id === button.id && b.textContent.trim() !== '',
      );
      const copy = /copy/.test(button.className);
      const name = twin
        ? 'Show or hide: ' + twin.textContent.trim()
        : copy
          ? 'Copy to clipboard'
          : button.hasAttribute('aria-expanded')
            ? 'Show or hide details'
            : null;
      if (name) button.setAttribute('aria-label', name);
    }
  }
  function focusableLists(root) {
    for (const list of root.querySelectorAll('ul.endpoints:not([tabindex])')) list.setAttribute('tabindex', '0');
  }
  let queued = false;
  function patch() {
    queued = false;
    labelEditors(document);
    nameButtons(document);
    focusableLists(document);
  }
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(patch);
  }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['role', 'aria-expanded'] });
  patch();
})();
`;
