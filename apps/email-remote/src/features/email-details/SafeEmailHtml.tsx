// An email's HTML, shown without letting it act: sanitised (sanitise.ts), then rendered in a sandboxed
// iframe (no scripts, no same-origin, no popups) whose own CSP also blocks any remote fetch.
import { useMemo } from 'react';
import { sanitiseEmailHtml } from './sanitise.ts';
import styles from './email-details.module.css';

const frameCsp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";

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
