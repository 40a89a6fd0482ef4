// An email's HTML, shown without letting it act: DOMPurify removes scripts, event handlers and
// javascript: links; remote images lose their address; and the result is rendered in a sandboxed
// iframe (no scripts, no same-origin, no popups) whose own CSP blocks any remote fetch.
import { useMemo } from 'react';
import DOMPurify from 'dompurify';
import styles from './email-details.module.css';

const remote = /^\s*(?:https?:)?\/\//i;

const frameCsp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";

export function sanitiseEmailHtml(html: string): string {
  const purifier = DOMPurify();
  purifier.addHook('afterSanitizeAttributes', (node) => {
    for (const attribute of ['src', 'srcset', 'background', 'poster']) {
      const value = node.getAttribute(attribute);
      if (value && (attribute === 'srcset' || remote.test(value))) {
        node.removeAttribute(attribute);
        node.setAttribute('data-blocked-remote', 'true');
      }
    }
    if (node.tagName === 'A') node.setAttribute('rel', 'noopener noreferrer');
  });
  return purifier.sanitize(html, { FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed', 'base', 'meta', 'link'] });
}

export function SafeEmailHtml({ html, title }: { html: string; title: string }) {
  const document = useMemo(
    () =>
      `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${frameCsp}">` +
      `<style>body{font:14px/1.45 system-ui,sans-serif;margin:12px;color:#1c2630}table{border-collapse:collapse}td,th{border:1px solid #c4ccd5;padding:4px 8px}</style>` +
      `</head><body>${sanitiseEmailHtml(html)}</body></html>`,
    [html],
  );
  return <iframe className={styles.frame} title={title} sandbox="" srcDoc={document} referrerPolicy="no-referrer" />;
}
