#!/usr/bin/env node
import nodeModule from 'node:module';
import { unsupportedNodeMessage } from './config/node-version.js';

// The version check comes before the gateway's modules load: on an older Node they fail to link
// with errors that do not say why.
const tooOld = unsupportedNodeMessage(process.versions.node);
if (tooOld) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(1);
}
// Node keeps the compiled code of the gateway's two thousand modules on disk (a folder of the system's
// temporary directory, or NODE_COMPILE_CACHE), so a start after the first does not compile them again.
nodeModule.enableCompileCache();
const { serveGateway } = await import('./serve-gateway.js');
await serveGateway(process.argv.slice(2));
