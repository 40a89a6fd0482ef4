import { Button } from './Button.tsx';
import { formatAboutCount, formatCount } from '../format.ts';

export function LoadingState({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="ej-state" role="status">
      {label}
    </div>
  );
}

/** A failed fetch: what went wrong, and a way to try again. */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: (() => void) | undefined }) {
  return (
    <div className="ej-state ej-state--error" role="alert">
      <div>{message}</div>
      {onRetry && (
        <div className="ej-state__actions">
          <Button onClick={onRetry}>Retry</Button>
        </div>
      )}
    </div>
  );
}

/**
 * 'Total Records: n'; a dash while the count is unknown (first load, or the list failed), so a
 * failed list never claims 0 records. A span inside a heading, a paragraph beside the filters.
 */
/** `exact` false: the count is the server's estimate of a broad match, said as one ("about 1.2 million"). */
export function TotalRecords({ count, exact = true, as: Tag = 'p' }: { count: number | undefined; exact?: boolean | undefined; as?: 'p' | 'span' }) {
  return (
    <Tag className="ej-total" aria-live="polite">
      Total Records: {count === undefined ? '—' : exact ? formatCount(count) : formatAboutCount(count)}
    </Tag>
  );
}
