import { useId, type InputHTMLAttributes, type SelectHTMLAttributes } from 'react';

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

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  options: readonly { value: string | number; label: string }[];
}

export function SelectField({ label, options, id, ...rest }: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <div className="ej-field">
      <label className="ej-field__label" htmlFor={selectId}>
        {label}
      </label>
      <select id={selectId} className="ej-select" {...rest}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
