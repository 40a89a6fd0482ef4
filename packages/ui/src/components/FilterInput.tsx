// A text filter that waits for a pause in typing before it changes the list (one request, not one
// per keystroke), and follows the URL when the list is reset or navigated.
import { useEffect, useRef, useState } from 'react';
import { TextField, type TextFieldProps } from './Field.tsx';

export interface FilterInputProps extends Omit<TextFieldProps, 'value' | 'onChange'> {
  value: string;
  onCommit: (value: string) => void;
  delayMs?: number;
}

export function FilterInput({ value, onCommit, delayMs = 300, ...rest }: FilterInputProps) {
  const [draft, setDraft] = useState(value);
  // When the URL changes the value (Reset Filters, back button), show that instead of the draft.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setDraft(value);
  }
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <TextField
      {...rest}
      value={draft}
      onChange={(event) => {
        const next = event.target.value;
        setDraft(next);
        clearTimeout(timer.current);
        // Dates and months commit at once: a picker's value is already complete.
        if (rest.type === 'date' || rest.type === 'month') onCommit(next);
        else timer.current = setTimeout(() => onCommit(next), delayMs);
      }}
    />
  );
}
