// First / Prev / 'Page {n} of {total}' / Next / Last and the page-size selector (docs/screens.md).
import { useId } from 'react';
import { Button } from './Button.tsx';

export const pageSizes = [10, 20, 50, 100] as const;

/** The page a list's answer to page=last names (an older answer without `page`: from its count). */
export const lastPageOf = (answer: { page?: number | undefined; count: number }, pageSize: number) =>
  answer.page ?? Math.max(1, Math.ceil(answer.count / pageSize));

export interface PagerProps {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  pageSize: number;
  onPageSize: (size: number) => void;
  sizes?: readonly number[];
  /** The selector's option text; /all-email shows '{n} per page', other lists the number alone. */
  sizeLabel?: (size: number) => string;
  /** False when the count, so the number of pages, is an estimate: "of about", and Last asks `onLast`. */
  exact?: boolean | undefined;
  /** Under an estimate, Last: the list counts exactly and goes to the page that is last. */
  onLast?: (() => void) | undefined;
}

export function Pager({
  page,
  totalPages,
  onPage,
  pageSize,
  onPageSize,
  sizes = pageSizes,
  sizeLabel = (n) => `${n} per page`,
  exact = true,
  onLast,
}: PagerProps) {
  const last = Math.max(1, totalPages);
  const go = (target: number) => {
    // Out-of-range requests are ignored.
    if (target >= 1 && target <= last && target !== page) onPage(target);
  };
  const sizeId = useId();
  return (
    <nav className="ej-pager" aria-label="Pagination">
      <Button size="small" onClick={() => go(1)} disabled={page <= 1}>
        First
      </Button>
      <Button size="small" onClick={() => go(page - 1)} disabled={page <= 1}>
        Prev
      </Button>
      <span className="ej-pager__label" aria-live="polite">
        Page {page} of {exact ? last : `about ${last}`}
      </span>
      <Button size="small" onClick={() => go(page + 1)} disabled={page >= last}>
        Next
      </Button>
      <Button size="small" onClick={() => (!exact && onLast ? onLast() : go(last))} disabled={page >= last}>
        Last
      </Button>
      <span className="ej-pager__spacer" />
      <label htmlFor={sizeId} className="ej-visually-hidden">
        Rows per page
      </label>
      <select id={sizeId} className="ej-select" value={pageSize} onChange={(e) => onPageSize(Number(e.target.value))}>
        {sizes.map((size) => (
          <option key={size} value={size}>
            {sizeLabel(size)}
          </option>
        ))}
      </select>
    </nav>
  );
}
