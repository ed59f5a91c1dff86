#!/usr/bin/env node
// The `gcn-webgpu` command: runs the TypeScript sources through tsx, so no build step stands
// between a checkout and the tool.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
