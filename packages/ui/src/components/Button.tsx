import type { ButtonHTMLAttributes } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'ghost';
  size?: 'normal' | 'small';
  /** Shows a spinner, keeps the label, and blocks further clicks while a request runs. */
  loading?: boolean;
}

export function Button({ variant = 'secondary', size = 'normal', loading = false, className, children, disabled, type, ...rest }: ButtonProps) {
  const classes = ['ej-button', `ej-button--${variant}`, size === 'small' && 'ej-button--small', className].filter(Boolean).join(' ');
  return (
    <button type={type ?? 'button'} className={classes} disabled={disabled || loading} aria-busy={loading || undefined} {...rest}>
      {loading && <span className="ej-spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
