// A text filter that waits for a pause in typing before it changes the list (one request, not one
// per keystroke), and follows the URL when the list is reset or navigated. A value still waiting
// never undoes what came after it: Reset drops it, and it lands on the URL as it is then (a page
// size chosen meanwhile stays), not on the URL of the keystroke.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { TextField, type TextFieldProps } from './Field.tsx';

export interface FilterInputProps extends Omit<TextFieldProps, 'value' | 'onChange'> {
  value: string;
  onCommit: (value: string) => void;
  delayMs?: number;
  /** Changes when the list's filters are reset: a value still waiting is dropped. */
  resets?: number;
}

export function FilterInput({ value, onCommit, delayMs = 300, resets = 0, ...rest }: FilterInputProps) {
  const [draft, setDraft] = useState(value);
  // When the URL changes the value (Reset Filters, back button), show that instead of the draft.
  const [shown, setShown] = useState({ value, resets });
  if (value !== shown.value || resets !== shown.resets) {
    setShown({ value, resets });
    setDraft(value);
  }
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The latest commit (it closes over the URL as it is now) and the reset count, for the timer.
  const latest = useRef({ onCommit, resets, value });
  useLayoutEffect(() => {
    if (latest.current.resets !== resets || latest.current.value !== value) clearTimeout(timer.current);
    latest.current = { onCommit, resets, value };
  });
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
        else {
          const scheduledAt = latest.current.resets;
          timer.current = setTimeout(() => {
            if (latest.current.resets === scheduledAt) latest.current.onCommit(next);
          }, delayMs);
        }
      }}
    />
  );
}
