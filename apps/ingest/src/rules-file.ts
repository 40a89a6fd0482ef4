// The rules file of `pnpm ingest --rules FILE`, checked before anything is replaced.
import { ignoreRuleFields, type RulesFile } from '@ejdesk/db';

export function parseRulesFile(text: string): RulesFile {
  const data = JSON.parse(text) as unknown;
  const fail = (what: string): never => {
    throw new Error(`rules file: ${what}`);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail('expected an object with "senders" and/or "ignore"');
  const { senders, ignore } = data as Record<string, unknown>;
  const out: RulesFile = {};
  if (senders !== undefined) {
    if (!Array.isArray(senders)) fail('"senders" must be a list');
    out.senders = (senders as unknown[]).map((s, i) => {
      const { sender, organisation } = (s ?? {}) as Record<string, unknown>;
      if (typeof sender !== 'string' || !/^[^@\s]*@[^@\s]+$/.test(sender)) fail(`senders[${i}].sender must be an address or @domain`);
      if (typeof organisation !== 'string' || !organisation.trim()) fail(`senders[${i}].organisation must name a bank or MSP`);
      return { sender: (sender as string).toLowerCase(), organisation: (organisation as string).trim() };
    });
  }
  if (ignore !== undefined) {
    if (!Array.isArray(ignore)) fail('"ignore" must be a list');
    out.ignore = (ignore as unknown[]).map((r, i) => {
      const { field, pattern } = (r ?? {}) as Record<string, unknown>;
      if (!ignoreRuleFields.includes(field as never)) fail(`ignore[${i}].field must be one of ${ignoreRuleFields.join(', ')}`);
      if (typeof pattern !== 'string' || !pattern.trim()) fail(`ignore[${i}].pattern must be a non-empty text`);
      return { field: field as (typeof ignoreRuleFields)[number], pattern: (pattern as string).trim() };
    });
  }
  return out;
}
