/**
 * Adds CSS to a shadow root as a constructable stylesheet. A strict Content-Security-Policy
 * (`style-src 'self'`, no 'unsafe-inline') blocks <style> elements, also inside a shadow root,
 * but not stylesheets built through the CSSOM; browsers without them (before Safari 16.4) get a
 * <style> element, which such a policy refuses. See docs/widget.md.
 */
export function adoptStyles(shadow: ShadowRoot, css: string): void {
  if ('adoptedStyleSheets' in Document.prototype && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
    return;
  }
  const style = document.createElement('style');
  style.textContent = css;
  shadow.appendChild(style);
}
