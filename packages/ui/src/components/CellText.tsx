// Table cell contents for wide tables: long text cut to one line with the whole text on hover, and
// identifiers (ATM ID, card, TXN) with a copy button, as operators paste them into other systems.
import { useState } from 'react';

/** One line, cut with an ellipsis; the full text shows on hover (title) and is read out in full. */
export function CutText({ text }: { text: string }) {
  return (
    <span className="ej-cut" title={text}>
      {text}
    </span>
  );
}

/** An identifier and a button that copies it; the button says "Copied" for a moment. */
export function CopyableId({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  if (!text) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // No clipboard (an insecure origin, or permission refused): the text stays selectable.
    }
  };
  return (
    <span className="ej-copyable">
      {text}
      {/* Its word is drawn by CSS, so the cell's text stays the identifier alone (tables, exports, tests). */}
      <button
        type="button"
        className="ej-copy"
        data-copied={copied || undefined}
        aria-label={copied ? `Copied ${label} ${text}` : `Copy ${label} ${text}`}
        onClick={() => void copy()}
      />
    </span>
  );
}
