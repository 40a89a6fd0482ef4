// A day, typed and shown as DD/MM/YYYY whatever the browser's language (a native date input shows
// mm/dd/yyyy in an American browser, beside the DD/MM/YY of every cell). A day typed as
// YYYY-MM-DD (pasted from a file) is taken too. The calendar button opens the browser's own picker.
// The value handed on is always YYYY-MM-DD, or '' when the field is empty; an unfinished or
// impossible day is said under the field and handed on as nothing.
import { useId, useRef, useState } from 'react';

const two = (n: number) => String(n).padStart(2, '0');

/** DD/MM/YYYY from YYYY-MM-DD ('' for anything else). */
export function formatDay(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : '';
}

/** YYYY-MM-DD from D/M/YYYY, DD-MM-YYYY, DD.MM.YYYY or YYYY-MM-DD; null when it is no day of the calendar. */
export function parseDay(text: string): string | null {
  const typed = text.trim();
  const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(typed);
  const ymd = dmy ? null : /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(typed);
  if (!dmy && !ymd) return null;
  const [year, month, day] = dmy ? [Number(dmy[3]), Number(dmy[2]), Number(dmy[1])] : [Number(ymd![1]), Number(ymd![2]), Number(ymd![3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${year}-${two(month)}-${two(day)}`;
}

export interface DateFieldProps {
  label: string;
  name?: string;
  /** YYYY-MM-DD, or '' for none. */
  value: string;
  /** A whole day (YYYY-MM-DD), or '' when the field is empty or its text is no day (yet). */
  onChange: (value: string) => void;
  className?: string | undefined;
  'aria-describedby'?: string | undefined;
}

export function DateField({ label, name, value, onChange, className, 'aria-describedby': describedBy }: DateFieldProps) {
  const id = useId();
  const problemId = useId();
  const picker = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(formatDay(value));
  const [shown, setShown] = useState(value);
  const [blurred, setBlurred] = useState(false);
  // A new value from outside (a filter cleared, the back button): show it.
  if (value !== shown) {
    setShown(value);
    if (parseDay(text) !== value) setText(formatDay(value));
  }
  const wrong = text.trim() !== '' && parseDay(text) === null;
  const take = (next: string) => {
    setText(next);
    // A whole day is handed on; text that is no day (yet) hands on none, not the day before it.
    const day = next.trim() === '' ? '' : (parseDay(next) ?? '');
    if (day !== value) {
      setShown(day);
      onChange(day);
    }
  };
  return (
    <div className={['ej-field', className].filter(Boolean).join(' ')}>
      <label className="ej-field__label" htmlFor={id}>
        {label}
      </label>
      <span className="ej-date">
        <input
          id={id}
          name={name}
          className="ej-input"
          inputMode="numeric"
          autoComplete="off"
          placeholder="DD/MM/YYYY"
          value={text}
          aria-invalid={(wrong && blurred) || undefined}
          aria-describedby={[wrong && blurred ? problemId : null, describedBy].filter(Boolean).join(' ') || undefined}
          onChange={(e) => take(e.target.value)}
          onBlur={() => {
            setBlurred(true);
            // A day typed whole is shown the one way (1/2/2026 as 01/02/2026).
            const day = parseDay(text);
            if (day) setText(formatDay(day));
          }}
          onFocus={() => setBlurred(false)}
        />
        <button
          type="button"
          className="ej-date__pick"
          aria-label={`Pick ${label} from a calendar`}
          onClick={() => {
            const input = picker.current;
            if (!input) return;
            input.value = parseDay(text) ?? '';
            try {
              input.showPicker();
            } catch {
              input.focus();
            }
          }}
        >
          <svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5">
            <rect x="2" y="3" width="12" height="11" rx="1.5" />
            <path d="M2 6.5h12M5.5 1.5v3M10.5 1.5v3" />
          </svg>
        </button>
        {/* The browser's calendar, out of sight and out of the tab order: the button opens it. */}
        <input
          ref={picker}
          type="date"
          className="ej-date__native"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            if (e.target.value) take(formatDay(e.target.value));
          }}
        />
      </span>
      {wrong && blurred && (
        <span id={problemId} className="ej-field__problem">
          Type a day as DD/MM/YYYY, such as 28/11/2026.
        </span>
      )}
    </div>
  );
}
