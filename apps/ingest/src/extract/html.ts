// Tables in a mail's HTML body, as grids of cell text.
import { DomUtils, parseDocument } from 'htmlparser2';
import { isTag, type Element } from 'domhandler';

export function htmlTableGrids(html: string): string[][][] {
  const document = parseDocument(html);
  const tables = DomUtils.getElementsByTagName('table', document.children, true);
  return tables.map((table) =>
    rowsOf(table).map((tr) =>
      DomUtils.getChildren(tr)
        .filter((c): c is Element => isTag(c) && (c.name === 'td' || c.name === 'th'))
        .map((cell) => DomUtils.textContent(cell).replace(/\s+/g, ' ').trim()),
    ),
  );
}

/** The table's own rows, not those of tables nested in its cells. */
function rowsOf(table: Element): Element[] {
  const rows: Element[] = [];
  const visit = (node: Element) => {
    for (const child of DomUtils.getChildren(node)) {
      if (!isTag(child)) continue;
      if (child.name === 'tr') rows.push(child);
      else if (child.name !== 'table') visit(child);
    }
  };
  visit(table);
  return rows;
}
