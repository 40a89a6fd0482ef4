import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** The input itself (a form puts the cursor in the field its message is about). */
  ref?: Ref<HTMLInputElement>;
}

/** A label above its control, the two tied by an id (given, or made here). */
function Labelled({
  label,
  id,
  className,
  control,
}: {
  label: string;
  id: string | undefined;
  className: string | undefined;
  control: (id: string) => ReactNode;
}) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div className={['ej-field', className].filter(Boolean).join(' ')}>
      <label className="ej-field__label" htmlFor={inputId}>
        {label}
      </label>
      {control(inputId)}
    </div>
  );
}

/** A labelled input; the label is always there for screen readers, visible unless hideLabel. */
export function TextField({ label, id, className, ...rest }: TextFieldProps) {
  return <Labelled label={label} id={id} className={className} control={(inputId) => <input id={inputId} className="ej-input" {...rest} />} />;
}

/** A labelled native select, styled as the text inputs. */
export function ChoiceField(props: {
  label: string;
  name: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="ej-field">
      <label className="ej-field__label" htmlFor={id}>
        {props.label}
      </label>
      <select id={id} name={props.name} className="ej-input" value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A labelled checkbox (the label follows the box, and clicking it toggles the box). */
export function CheckField({ label, checked, onChange, name }: { label: string; name: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div className="ej-field ej-field--check">
      <input id={id} type="checkbox" name={name} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** A labelled multi-line text input (a note, a reason), styled as the text inputs. */
export function TextAreaField({ label, id, className, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string }) {
  return (
    <Labelled label={label} id={id} className={className} control={(inputId) => <textarea id={inputId} className="ej-input ej-input--area" {...rest} />} />
  );
}
