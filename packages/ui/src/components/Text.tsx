// Text the screens share: a note in small muted words, and a link in running text or a cell.
import type { HTMLAttributes } from 'react';
import { Link, type LinkProps } from 'react-router-dom';

/** A note beside or under what it explains; `inline` for one inside a line or a cell. */
export function Note({ inline, className, ...rest }: HTMLAttributes<HTMLElement> & { inline?: boolean }) {
  const Element = inline ? 'span' : 'p';
  return <Element className={['ej-note', className].filter(Boolean).join(' ')} {...rest} />;
}

/** A link to another screen, in the console's link colour. */
export function TextLink({ className, ...rest }: LinkProps) {
  return <Link className={['ej-link', className].filter(Boolean).join(' ')} {...rest} />;
}
