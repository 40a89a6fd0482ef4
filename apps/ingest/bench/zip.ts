// `pnpm bench journal-zip`: a ZIP of journals of BENCH_ZIP_MB (500 by default) on disk, read and
// parsed as the ingester reads an operator's archive, for its speed and its peak memory. The journals
// are the independent generator's day journals (tools/journal-gen, 20 ATMs of each family) again and
// again under new names, deflated by Python's zipfile; they are read and parsed in a process of their
// own (bench/zip-journals.ts), so that its peak RSS is the archive's alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const folder = mkdtempSync(join(tmpdir(), 'ejdesk-bench-zip-'));
try {
  const ejgen = new URL('../../../tools/journal-gen/ejgen.py', import.meta.url).pathname;
  execFileSync('/usr/bin/python3', [ejgen, '--out', join(folder, 'day'), '--seed', '5', '--atms', '20'], { stdio: 'ignore' });
  const archive = join(folder, 'journals.zip');
  const pack = `import os, sys, zipfile
day, out, target = sys.argv[1], sys.argv[2], int(sys.argv[3]) * 2**20
files = [(f, open(os.path.join(day, f), 'rb').read()) for f in sorted(os.listdir(day)) if f != 'manifest.json']
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    i = 0
    while z.fp.tell() < target:
        name, data = files[i % len(files)]
        z.writestr(f'{i:06d}/{name}', data)
        i += 1`;
  execFileSync('/usr/bin/python3', ['-c', pack, join(folder, 'day'), archive, process.env.BENCH_ZIP_MB ?? '500'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['--import', 'tsx', new URL('zip-journals.ts', import.meta.url).pathname, archive], { stdio: 'inherit' });
} finally {
  rmSync(folder, { recursive: true, force: true });
}
