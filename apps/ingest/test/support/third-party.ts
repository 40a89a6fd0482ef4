// Test files other projects made, installed from npm for them alone.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** node-tnef's own TNEF test files (winmail.dat as Outlook writes it, and broken ones). */
export const thirdPartyTnef = (name: string) => join(dirname(createRequire(import.meta.url).resolve('node-tnef/package.json')), 'testFiles', name);
