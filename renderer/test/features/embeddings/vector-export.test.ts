import { describe, expect, it } from 'vitest';
import { vectorsToCsv, vectorsToJson } from '../../../src/features/embeddings/vector-export';

const rows = [
  { text: 'plain', embedding: [0.5, -1] },
  { text: 'has, a "quote"', embedding: [0.25, 2e-7] },
];

describe('vector export', () => {
  it('CSV has a dimension header and quotes texts with commas or quotes', () => {
    expect(vectorsToCsv(rows)).toBe('text,d0,d1\nplain,0.5,-1\n"has, a ""quote""",0.25,2e-7\n');
  });

  it('CSV opens a text that looks like a formula as text', () => {
    expect(
      vectorsToCsv([
        { text: '=1+1', embedding: [-0.5] },
        { text: '@A1', embedding: [1] },
      ]),
    ).toBe("text,d0\n'=1+1,-0.5\n'@A1,1\n");
  });

  it('JSON keeps the model, input order and full vectors', () => {
    expect(JSON.parse(vectorsToJson(rows, 'svc-embed'))).toEqual({
      model: 'svc-embed',
      data: [
        { index: 0, text: 'plain', embedding: [0.5, -1] },
        { index: 1, text: 'has, a "quote"', embedding: [0.25, 2e-7] },
      ],
    });
  });
});
