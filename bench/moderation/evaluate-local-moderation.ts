/**
 * Precision and recall of the built-in moderation classifier on OpenAI's public moderation test set
 * (github.com/openai/moderation-api-release, data/samples-1680.jsonl.gz, MIT licence; not shipped:
 * pass the unzipped file). A sample counts as flagged when any of its labels is 1; the classifier's
 * verdict is any category at or above 0.5, as /v1/moderations answers. The calibration offset was
 * fitted on the even lines, so the odd lines are the honest figure.
 *
 *   npx tsx bench/moderation/evaluate-local-moderation.ts /path/to/samples-1680.jsonl
 */
import { readFileSync } from 'node:fs';
import { createOnnxEmbeddingsProvider } from '../../gateway/src/providers/onnx-embeddings/create-onnx-embeddings-provider.js';

const LABELS = ['S', 'H', 'V', 'HR', 'SH', 'S3', 'H2', 'V2'];
const path = process.argv[2];
if (!path) throw new Error('Pass the path of samples-1680.jsonl.');
const rows = readFileSync(path, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Record<string, unknown> & { prompt: string });

const provider = createOnnxEmbeddingsProvider({
  id: 'local-embed',
  options: { type: 'onnx-embeddings', idle_unload_ms: 0 },
  dataDir: '.',
  logger: { info: () => undefined, warn: console.warn, error: console.error },
});
const moderation = provider.capabilities.moderation;
if (!moderation) throw new Error('The provider has no moderation capability.');

const indexes = rows.map((_, index) => index);
const halves = {
  'calibration (even lines)': indexes.filter((index) => index % 2 === 0),
  'held out (odd lines)': indexes.filter((index) => index % 2 === 1),
};

const started = performance.now();
const verdicts: boolean[] = [];
for (const row of rows) {
  const { results } = await moderation.moderate({
    model: 'svc-moderation-local',
    input: { texts: [row.prompt] },
    signal: new AbortController().signal,
  });
  verdicts.push(Object.values(results[0].categories).some(Boolean));
}
const perSample = (performance.now() - started) / rows.length;

for (const [name, indexes] of Object.entries(halves)) {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  for (const index of indexes) {
    const labelled = LABELS.some((label) => rows[index][label] === 1);
    if (verdicts[index] && labelled) truePositives++;
    else if (verdicts[index]) falsePositives++;
    else if (labelled) falseNegatives++;
  }
  const precision = truePositives / Math.max(truePositives + falsePositives, 1);
  const recall = truePositives / Math.max(truePositives + falseNegatives, 1);
  console.log(
    `${name}: ${indexes.length} samples, precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)}, F1 ${((2 * precision * recall) / (precision + recall)).toFixed(2)}`,
  );
}
console.log(`${perSample.toFixed(0)} ms a sample (median 380 characters)`);
await provider.close();
