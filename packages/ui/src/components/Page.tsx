import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A screen: its heading, actions and content. Each screen names the browser tab, and its heading
 * takes focus when the screen opens, so a screen reader announces the new page after navigation
 * (the focus would otherwise stay on the side-nav link just used).
 */
export function Page(props: {
  /** The screen's name: the tab's title, and the heading unless `heading` is given. */
  title: string;
  heading?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { title, heading: headingContent = title, actions, children } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    document.title = `${title} — EJ Desk`;
  }, [title]);
  useEffect(() => {
    // Unless something on the screen took it first (Back to a list: the row that was opened).
    if (section.current?.contains(document.activeElement)) return;
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section className="ej-page" ref={section}>
      <header className="ej-page__header">
        <h1 className="ej-page__title" ref={heading} tabIndex={-1}>
          {headingContent}
        </h1>
        {actions && <div className="ej-page__actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={['ej-card', className].filter(Boolean).join(' ')}>{children}</div>;
}

/**
 * A card of text and forms (not a table) under a small title, with room around its content and
 * between panels; `actions` (a button) stand at the title's right.
 */
export function Panel({ title, actions, className, children }: { title: ReactNode; actions?: ReactNode; className?: string; children: ReactNode }) {
  const heading = <h2 className="ej-section-title">{title}</h2>;
  return (
    <div className={['ej-card', 'ej-panel', className].filter(Boolean).join(' ')}>
      {actions ? (
        <div className="ej-panel__header">
          {heading}
          {actions}
        </div>
      ) : (
        heading
      )}
      {children}
    </div>
  );
}
