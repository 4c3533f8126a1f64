import juice from 'juice';

/**
 * Moves `<style>` rules into `style` attributes for clients that ignore style blocks. Media
 * queries (responsive and dark-mode rules) stay in a `<style>` block, because they cannot be
 * inlined; `!important` survives, so mobile rules can still win over inlined ones.
 */
export function inlineCss(html: string): string {
  return juice(html, {
    preserveMediaQueries: true,
    preserveFontFaces: true,
    preserveImportant: true,
    removeStyleTags: true,
    applyWidthAttributes: false,
    applyHeightAttributes: false,
    insertPreservedExtraCss: true,
  });
}
