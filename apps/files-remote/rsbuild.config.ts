import { defineRemote } from '../../rsbuild.shared.ts';
import descriptor from './src/descriptor.ts';

export default defineRemote(descriptor);
