/**
 * What the gateway's per-request features cost together: a copy of the build in which chosen
 * features are left out (their registration skipped), measured against the build itself with
 * ab.ts (both at once, under the same load). Issue 16's targets were judged with it
 * (docs/performance.md, "Where the gap to the bare proxy is").
 *
 *   npx tsx bench/gateway/knockout.ts [--leave-out host,cors,usage,spend,metrics,compress,headers,traces]
 *     [--keep] [ab.ts options: --rounds 5 --seconds 3 --stream ...]
 *
 * With --keep the copy stays, and `npx tsx bench/gateway/run.ts --gateway <the copy's cli.js>` with
 * KNOCKOUT=<the same list> in the environment measures it beside the bare proxy. The copy is
 * made by editing the built JavaScript; an edit that no longer finds its text stops the script,
 * so a change to the build cannot silently leave a feature in.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FEATURES = ['host', 'cors', 'usage', 'spend', 'metrics', 'compress', 'headers', 'traces'] as const;
type Feature = (typeof FEATURES)[number];

/** Where each feature is registered in the build, and what replaces that line when it is left out. */
const EDITS: Record<Feature, { file: string; find: string; replace: string }> = {
  // The framing checks stay; the loopback Host guard goes.
  host: {
    file: 'http/request-framing.js',
    find: '    const guarded = isLoopbackAddress(boundHost);',
    replace: "    const guarded = !LEFT_OUT.has('host') && isLoopbackAddress(boundHost);",
  },
  cors: {
    file: 'app.js',
    find: '    await registerCors(app,',
    replace: "    if (!LEFT_OUT.has('cors')) await registerCors(app,",
  },
  // The usage recorder also provides what a stream calls at its end.
  usage: {
    file: 'app.js',
    find: '    registerUsageRecorder(app,',
    replace:
      "    if (LEFT_OUT.has('usage')) app.decorate('recordStreamEnd', async () => {}); else registerUsageRecorder(app,",
  },
  // The bill stays (the use cases charge it); its hooks go.
  spend: {
    file: 'http/spend-reservation.js',
    find: "    app.addHook('preHandler',",
    replace: "    if (LEFT_OUT.has('spend')) return;\n    app.addHook('preHandler',",
  },
  metrics: {
    file: 'app.js',
    find: '    registerMetricsHooks(app,',
    replace: "    if (!LEFT_OUT.has('metrics')) registerMetricsHooks(app,",
  },
  compress: {
    file: 'app.js',
    find: '    await registerCompression(app,',
    replace: "    if (!LEFT_OUT.has('compress')) await registerCompression(app,",
  },
  // The request's fields stay (others read them); the id, security and timing headers go.
  headers: {
    file: 'http/request-context.js',
    find: "    app.addHook('onRequest',",
    replace: "    if (LEFT_OUT.has('headers')) return;\n    app.addHook('onRequest',",
  },
  // No request is traced: the stages' spans are not started either (there is no trace to start them in).
  traces: {
    file: 'app.js',
    find: '    registerRequestTracing(app,',
    replace: "    if (LEFT_OUT.has('traces')) app.decorateRequest('traceSpan', null); else registerRequestTracing(app,",
  },
};

const LEFT_OUT_LINE = "const LEFT_OUT = new Set((process.env.KNOCKOUT ?? '').split(','));\n";

const root = join(import.meta.dirname, '../..');
const argv = process.argv.slice(2);
const at = argv.indexOf('--leave-out');
const leaveOut = (at >= 0 ? argv[at + 1] : FEATURES.join(',')).split(',').filter(Boolean);
for (const feature of leaveOut)
  if (!(FEATURES as readonly string[]).includes(feature))
    throw new Error(`unknown feature "${feature}"; the features are ${FEATURES.join(', ')}`);
// Billing settles the spend reservation: without the recorder every hold would stay and the key would soon be refused (402).
if (leaveOut.includes('usage') && !leaveOut.includes('spend'))
  throw new Error('leaving out usage needs leaving out spend too (nothing would settle the reservations)');
const keep = argv.includes('--keep');
const abArgs = (at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + 2)] : argv).filter((arg) => arg !== '--keep');

const copy = mkdtempSync(join(tmpdir(), 'switchyard-knockout-'));
cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
cpSync(join(root, 'package.json'), join(copy, 'package.json'));
symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
const source = join(copy, 'dist/gateway/src');
const edited = new Map<string, string>();
for (const { file, find, replace } of Object.values(EDITS)) {
  const text = edited.get(file) ?? LEFT_OUT_LINE + readFileSync(join(source, file), 'utf8');
  if (text.split(find).length !== 2)
    throw new Error(
      `${file} no longer has exactly one "${find.trim()}": update bench/gateway/knockout.ts to the build`,
    );
  edited.set(file, text.replace(find, replace));
}
for (const [file, text] of edited) writeFileSync(join(source, file), text);

const cli = join(source, 'cli.js');
console.log(`Left out of A: ${leaveOut.join(', ')}. The copy: ${cli} (KNOCKOUT=${leaveOut.join(',')})\n`);
const ab = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'ab.ts'), '--a', cli, ...abArgs], {
  stdio: 'inherit',
  env: { ...process.env, KNOCKOUT: leaveOut.join(',') },
});
if (!keep) rmSync(copy, { recursive: true, force: true });
process.exit(ab.status ?? 1);
