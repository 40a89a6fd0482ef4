// An email's HTML made inert: DOMPurify removes scripts, event handlers and javascript: links;
// then nothing may make the viewer fetch anything. Every attribute that loads a resource keeps only
// an inline data: (or cid:) value: remote, protocol-relative, file: and UNC (\\host\share) addresses
// all go, on HTML and SVG elements alike, and inline styles lose any url(), image-set() or
// expression(). The sandboxed iframe's CSP blocks fetches too; this does not rely on it.
import DOMPurify from 'dompurify';

/** Attributes whose value is fetched (or followed without a click) by some element. */
const fetchingAttributes = [
  'src',
  'srcset',
  'background',
  'poster',
  'lowsrc',
  'dynsrc',
  'longdesc',
  'data',
  'action',
  'formaction',
  'href',
  'xlink:href',
  'ping',
];
const inline = /^\s*(?:data:|cid:|#)/i;
const fetchingCss = /url\s*\(|image-set\s*\(|expression\s*\(|@import|behavior\s*:|-moz-binding/i;

/** CSS as the browser reads it: comments gone, escapes (u\72l, \u) decoded, so none hides a url(). */
const decodeCss = (css: string) =>
  css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_m, hex: string) => String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff) || 0xfffd))
    .replace(/\\(.)/g, '$1');
const fetches = (css: string) => fetchingCss.test(decodeCss(css));

export function sanitiseEmailHtml(html: string): string {
  const purifier = DOMPurify();
  purifier.addHook('afterSanitizeAttributes', (node) => {
    const isLink = node.tagName === 'A' || node.tagName === 'AREA';
    for (const attribute of fetchingAttributes) {
      // A link's href is only followed on a click (and the sandbox opens nothing).
      if (isLink && attribute === 'href') continue;
      const value = node.getAttribute(attribute);
      if (value === null || (attribute !== 'srcset' && inline.test(value))) continue;
      node.removeAttribute(attribute);
      node.setAttribute('data-blocked-remote', 'true');
    }
    const style = node.getAttribute('style');
    if (style && fetches(style)) {
      // Drop the declarations that fetch; keep the rest of the look.
      const kept = style
        .split(';')
        .filter((declaration) => !fetches(declaration))
        .join(';');
      if (kept.trim()) node.setAttribute('style', kept);
      else node.removeAttribute('style');
      node.setAttribute('data-blocked-remote', 'true');
    }
    if (isLink) node.setAttribute('rel', 'noopener noreferrer');
  });
  return purifier.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed', 'base', 'meta', 'link', 'frame', 'frameset', 'portal'],
  });
}
