import { describe, expect, it } from 'vitest';
import { datasetFields, datasetToJsonl, itemSchemaOf, parseDataset } from '../../../src/features/evals/parse-dataset';

describe('parseDataset', () => {
  it('reads bare items and {item, sample} lines, and names each bad line', () => {
    const text = [
      '{"question": "Capital of France?", "answer": "Paris"}',
      '',
      '{"item": {"question": "2 + 2?", "answer": "4"}, "sample": {"output_text": "4"}}',
      'not json',
      '[1, 2]',
      '{"item": "flat", "sample": {}}',
    ].join('\n');
    const { rows, problems } = parseDataset(text);
    expect(rows).toEqual([
      { item: { question: 'Capital of France?', answer: 'Paris' } },
      { item: { question: '2 + 2?', answer: '4' }, sample: { output_text: '4' } },
    ]);
    expect(problems).toEqual([
      { line: 4, message: 'not JSON' },
      { line: 5, message: 'a JSON object is expected' },
      { line: 6, message: '"item" must be a JSON object' },
    ]);
  });

  it('takes one JSON array of items as well', () => {
    expect(parseDataset(' [{"a": 1}, {"item": {"a": 2}}] ').rows).toEqual([{ item: { a: 1 } }, { item: { a: 2 } }]);
  });

  it('keeps an object that merely has an item field among others as a bare item', () => {
    expect(parseDataset('{"item": "pen", "price": 2}').rows).toEqual([{ item: { item: 'pen', price: 2 } }]);
  });
});

describe('the item schema of a dataset', () => {
  const rows = [{ item: { input: 'a', expected: 'b', n: 1 } }, { item: { input: 'c', n: 'two', tags: ['x'] } }];

  it('lists the fields in first-seen order', () => {
    expect(datasetFields(rows)).toEqual(['input', 'expected', 'n', 'tags']);
  });

  it('types a field only when every row agrees, and requires the fields every row has', () => {
    expect(itemSchemaOf(rows)).toEqual({
      type: 'object',
      properties: { input: { type: 'string' }, expected: { type: 'string' }, n: {}, tags: { type: 'array' } },
      required: ['input', 'n'],
    });
  });

  it('writes the rows back as JSONL', () => {
    expect(datasetToJsonl(rows).split('\n')).toHaveLength(2);
    expect(parseDataset(datasetToJsonl(rows)).rows).toEqual(rows);
  });
});
