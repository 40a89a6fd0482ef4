// A list's filter box. Text is handed to the list as typed (onType: the list applies it after a
// pause in typing, or with the next page change); a date or month is complete when picked and is
// applied at once (onCommit). The box follows the URL when the list is reset or navigated.
import { useState } from 'react';
import { DateField } from './DateField.tsx';
import { TextField, type TextFieldProps } from './Field.tsx';

export interface FilterInputProps extends Omit<TextFieldProps, 'value' | 'onChange'> {
  value: string;
  /** Text as typed (useListState's typeFilter). */
  onType: (value: string) => void;
  /** A picked date or month. */
  onCommit: (value: string) => void;
  /** Changes when the list's filters are reset: what was typed is shown no more. */
  resets?: number;
}

export function FilterInput({ value, onType, onCommit, resets = 0, ...rest }: FilterInputProps) {
  const [draft, setDraft] = useState(value);
  // When the URL changes the value (Reset Filters, back button), show that instead of the draft.
  const [shown, setShown] = useState({ value, resets });
  if (value !== shown.value || resets !== shown.resets) {
    setShown({ value, resets });
    setDraft(value);
  }
  if (rest.type === 'date') {
    // Typed as DD/MM/YYYY (DateField), applied once whole.
    return (
      <DateField
        label={rest.label}
        name={rest.name}
        className={rest.className}
        value={draft}
        onChange={(next) => {
          setDraft(next);
          onCommit(next);
        }}
      />
    );
  }
  return (
    <TextField
      {...rest}
      value={draft}
      onChange={(event) => {
        const next = event.target.value;
        setDraft(next);
        if (rest.type === 'month') onCommit(next);
        else onType(next);
      }}
    />
  );
}
