import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** The input itself (a form puts the cursor in the field its message is about). */
  ref?: Ref<HTMLInputElement>;
  /** What is wrong with the value, in plain words, said under the field (and the field marked). */
  problem?: string | null | undefined;
  /** What the field takes, in plain words, under it. */
  hint?: string | undefined;
}

/** A field's problem under it, tied to the control (aria-describedby) and marking it invalid. */
function problemProps(problem: string | null | undefined, problemId: string, describedBy: string | undefined) {
  if (!problem) return { 'aria-describedby': describedBy };
  return { 'aria-invalid': true, 'aria-describedby': [problemId, describedBy].filter(Boolean).join(' ') };
}

function Problem({ id, problem }: { id: string; problem: string | null | undefined }) {
  return problem ? (
    <span id={id} className="ej-field__problem">
      {problem}
    </span>
  ) : null;
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
export function TextField({ label, id, className, problem, hint, ...rest }: TextFieldProps) {
  const problemId = useId();
  const hintId = useId();
  const describedBy = [hint ? hintId : null, rest['aria-describedby']].filter(Boolean).join(' ') || undefined;
  return (
    <Labelled
      label={label}
      id={id}
      className={className}
      control={(inputId) => (
        <>
          <input id={inputId} className="ej-input" {...rest} {...problemProps(problem, problemId, describedBy)} />
          {hint && (
            <span id={hintId} className="ej-field__hint">
              {hint}
            </span>
          )}
          <Problem id={problemId} problem={problem} />
        </>
      )}
    />
  );
}

/** A labelled native select, styled as the text inputs. */
export function ChoiceField(props: {
  label: string;
  name: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  problem?: string | null | undefined;
}) {
  const id = useId();
  const problemId = useId();
  return (
    <div className="ej-field">
      <label className="ej-field__label" htmlFor={id}>
        {props.label}
      </label>
      <select
        id={id}
        name={props.name}
        className="ej-input"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        {...problemProps(props.problem, problemId, undefined)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Problem id={problemId} problem={props.problem} />
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
