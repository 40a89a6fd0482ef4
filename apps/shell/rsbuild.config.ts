import { defineShell } from '../../rsbuild.shared.ts';

export default defineShell();
