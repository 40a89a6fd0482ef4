import type { ReactNode } from 'react';

export function Page({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="ej-page">
      <header className="ej-page__header">
        <h1 className="ej-page__title">{title}</h1>
        {actions && <div className="ej-page__actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={['ej-card', className].filter(Boolean).join(' ')}>{children}</div>;
}
