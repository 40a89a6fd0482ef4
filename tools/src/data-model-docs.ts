// docs/data-model.md's tables, written from packages/db's schema by `pnpm docs:write`: each domain
// folder's tables with the comment above each table's definition (what it holds) and its columns. A
// table added without saying what it holds fails the writer, and the docs test fails when the page
// and the schema disagree, so the page cannot miss a table again.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const dbSource = join(import.meta.dirname, '../../packages/db/src');
export const dataModelDoc = join(import.meta.dirname, '../../docs/data-model.md');
const begin = "<!-- tables: written by `pnpm docs:write` from packages/db's schema; edit the comments there, not this -->";
const end = '<!-- tables end -->';

interface Table {
  name: string;
  holds: string;
  columns: string[];
}
interface Domain {
  folder: string;
  about: string;
  tables: Table[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The text of a `/** ... *\/` comment without its stars, as one line. */
const commentText = (raw: string) =>
  raw
    .replace(/^\/\*\*?/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The doc comment right above a statement, or ''. */
function docComment(file: ts.SourceFile, node: ts.Node): string {
  const ranges = ts.getLeadingCommentRanges(file.text, node.getFullStart()) ?? [];
  const last = ranges.at(-1);
  if (!last || last.kind !== ts.SyntaxKind.MultiLineCommentTrivia) return '';
  const raw = file.text.slice(last.pos, last.end);
  return raw.startsWith('/**') ? commentText(raw) : '';
}

/** The file's opening `//` comment lines, as one paragraph (a domain's schema says what the domain is). */
function fileComment(text: string): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return lines.join(' ').replace(/\s+/g, ' ').trim();
}

/** A column's SQL name: the first string argument of the innermost builder call (`text('bank_name')`). */
function columnName(key: string, value: ts.Expression): string {
  let call: ts.Expression = value;
  for (;;) {
    if (ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression)) call = call.expression.expression;
    else break;
  }
  if (ts.isCallExpression(call)) {
    const [first] = call.arguments;
    if (first && ts.isStringLiteral(first)) return first.text;
  }
  return key;
}

function tablesOf(path: string): { about: string; tables: Table[] } {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const tables: Table[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'pgTable') continue;
      const [nameArg, columnsArg] = init.arguments;
      if (!nameArg || !ts.isStringLiteral(nameArg)) continue;
      const columns =
        columnsArg && ts.isObjectLiteralExpression(columnsArg)
          ? columnsArg.properties.flatMap((p) => (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) ? [columnName(p.name.text, p.initializer)] : []))
          : [];
      tables.push({ name: nameArg.text, holds: docComment(file, statement), columns });
    }
  }
  return { about: fileComment(text), tables };
}

/** Every table of the schema by its domain folder (top-level files are one group). */
export function dataModel(): Domain[] {
  const domains = new Map<string, Domain>();
  for (const path of sourceFiles(dbSource).sort()) {
    const { about, tables } = tablesOf(path);
    if (tables.length === 0) continue;
    const parts = relative(dbSource, path).split(sep);
    const folder = parts.length > 1 ? parts[0]! : '';
    const domain = domains.get(folder) ?? { folder, about: '', tables: [] };
    domain.about ||= about;
    domain.tables.push(...tables);
    domains.set(folder, domain);
  }
  const silent = [...domains.values()].flatMap((d) => d.tables.filter((t) => !t.holds).map((t) => t.name));
  if (silent.length) throw new Error(`Say what these tables hold in a /** comment */ above their pgTable: ${silent.join(', ')}`);
  return [...domains.values()];
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The generated section: a heading and a table per domain. */
export function tablesSection(): string {
  const lines = [begin, ''];
  for (const domain of dataModel()) {
    const where = domain.folder ? `packages/db/src/${domain.folder}/` : 'packages/db/src/';
    lines.push(`### ${domain.folder || 'Shared'} (\`${where}\`)`, '');
    if (domain.about) lines.push(domain.about, '');
    lines.push('| table | holds | columns |', '| --- | --- | --- |');
    for (const table of domain.tables) lines.push(`| \`${table.name}\` | ${cell(table.holds)} | ${table.columns.map((c) => `\`${c}\``).join(', ')} |`);
    lines.push('');
  }
  lines.push(end);
  return lines.join('\n');
}

/** docs/data-model.md with its tables section as the schema says. */
export function withTables(doc: string): string {
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/data-model.md has no tables section (${begin} ... ${end})`);
  return doc.slice(0, from) + tablesSection() + doc.slice(to + end.length);
}
