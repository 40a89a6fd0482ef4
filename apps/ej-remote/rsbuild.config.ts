import { defineRemote } from '../../rsbuild.shared.ts';

export default defineRemote('ej');
