// The rules file of `pnpm ingest --rules FILE`, checked before anything is replaced, entry by entry
// with the same checks as the admin lists (packages/db's rules.ts).
import { checkIgnoreRule, checkSenderMapping, RuleProblem, type RulesFile } from '@ejdesk/db';

export function parseRulesFile(text: string): RulesFile {
  const data = JSON.parse(text) as unknown;
  const fail = (what: string): never => {
    throw new Error(`rules file: ${what}`);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail('expected an object with "senders" and/or "ignore"');
  const { senders, ignore } = data as Record<string, unknown>;
  const out: RulesFile = {};
  const each = <T>(list: unknown[], name: string, check: (entry: Record<string, unknown>, where: string) => T): T[] =>
    list.map((entry, i) => {
      try {
        return check((entry ?? {}) as Record<string, unknown>, `${name}[${i}].`);
      } catch (err) {
        return fail(err instanceof RuleProblem ? err.message : String(err));
      }
    });
  if (senders !== undefined) {
    if (!Array.isArray(senders)) fail('"senders" must be a list');
    out.senders = each(senders as unknown[], 'senders', checkSenderMapping);
  }
  if (ignore !== undefined) {
    if (!Array.isArray(ignore)) fail('"ignore" must be a list');
    out.ignore = each(ignore as unknown[], 'ignore', checkIgnoreRule);
  }
  return out;
}
