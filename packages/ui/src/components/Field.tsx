import { useId, type InputHTMLAttributes } from 'react';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
}

/** A labelled input; the label is always there for screen readers, visible unless hideLabel. */
export function TextField({ label, id, className, ...rest }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div className={['ej-field', className].filter(Boolean).join(' ')}>
      <label className="ej-field__label" htmlFor={inputId}>
        {label}
      </label>
      <input id={inputId} className="ej-input" {...rest} />
    </div>
  );
}
