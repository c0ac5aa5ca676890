import { describe, expect, it } from 'vitest';
import {
  buildMistralPages,
  type MistralPageOptions,
  type PageExtras,
} from '../../src/ocr-layout/build-mistral-pages.js';
import { findFigures } from '../../src/ocr-layout/find-figures.js';
import type { BoxCoordinates, OcrBlock, OcrLine, OcrPage, OcrWord } from '../../src/providers/contracts/ocr.js';

/** A line of words laid out left to right from x, each character `height * 0.55` wide, one space `height * 0.3`. */
function line(text: string, x: number, y: number, height = 20, confidence = 0.9): OcrLine {
  const words: OcrWord[] = [];
  let at = x;
  for (const word of text.split(' ')) {
    const width = Math.round(word.length * height * 0.55);
    words.push({ text: word, bbox: [at, y, at + width, y + height], confidence });
    at += width + Math.round(height * 0.3);
  }
  return { text, bbox: [x, y, words[words.length - 1].bbox[2], y + height], confidence, words };
}
/** A row of cells, each starting at its own x. */
function row(cells: [string, number][], y: number, height = 20): OcrLine {
  const parts = cells.map(([text, x]) => line(text, x, y, height));
  const words = parts.flatMap((part) => part.words);
  return {
    text: cells.map(([text]) => text).join(' '),
    bbox: [parts[0].bbox[0], y, parts[parts.length - 1].bbox[2], y + height],
    confidence: 0.9,
    words,
  };
}
function block(lines: OcrLine[]): OcrBlock {
  return {
    text: lines.map((l) => l.text).join('\n'),
    bbox: [
      Math.min(...lines.map((l) => l.bbox[0])),
      lines[0].bbox[1],
      Math.max(...lines.map((l) => l.bbox[2])),
      lines[lines.length - 1].bbox[3],
    ],
    confidence: 0.9,
    lines,
  };
}
function page(blocks: OcrBlock[], index = 0): OcrPage {
  return { index, width: 1000, height: 1400, text: blocks.map((b) => b.text).join('\n\n'), blocks, source: 'ocr' };
}

const OPTIONS: MistralPageOptions = {
  tableFormat: null,
  extractHeader: false,
  extractFooter: false,
  includeBlocks: true,
  confidenceGranularity: null,
};
const NO_EXTRAS: PageExtras = { figures: [], dpi: 200 };
const build = (pages: OcrPage[], options: Partial<MistralPageOptions> = {}, extras?: PageExtras[]) =>
  buildMistralPages(pages, extras ?? pages.map(() => NO_EXTRAS), { ...OPTIONS, ...options });

const article = page([
  block([line('Annual Review', 100, 150, 44)]),
  block([
    line('The year began with strong sales in every region and', 100, 240),
    line('ended with record orders from new customers.', 100, 266),
  ]),
  block([line('Costs stayed flat while the team grew.', 100, 330)]),
  block([line('Key results', 100, 400, 30)]),
  block([
    line('• Revenue up seven percent', 120, 460),
    line('• Two new offices opened', 120, 490),
    line('• Staff grew to forty people', 120, 520),
  ]),
  block([line('1. Hire two engineers', 120, 580), line('2. Open the Lyon office', 120, 610)]),
]);

describe('Mistral-style page markdown', () => {
  it('turns a heading, paragraphs and lists into Markdown, with typed blocks in reading order', () => {
    const [result] = build([article]);
    expect(result.markdown).toBe(
      [
        '# Annual Review',
        'The year began with strong sales in every region and ended with record orders from new customers.',
        'Costs stayed flat while the team grew.',
        '## Key results',
        '- Revenue up seven percent\n- Two new offices opened\n- Staff grew to forty people',
        '1. Hire two engineers\n2. Open the Lyon office',
      ].join('\n\n'),
    );
    expect(result.blocks!.map((b) => b.type)).toEqual(['title', 'text', 'text', 'title', 'list', 'list']);
    expect(result.blocks![0]).toMatchObject({
      content: 'Annual Review',
      top_left_x: 100,
      top_left_y: 150,
      bottom_right_y: 194,
    });
    expect(result).toMatchObject({
      index: 0,
      images: [],
      tables: [],
      hyperlinks: [],
      header: null,
      footer: null,
      dimensions: { dpi: 200, width: 1000, height: 1400 },
    });
  });

  it('splits one engine block at a paragraph gap and joins a word hyphenated across lines', () => {
    const [result] = build([
      page([
        block([
          line('Body text that runs on and on over a long line', 100, 100),
          line('with a hyphen-', 100, 126),
          line('ated word inside it.', 100, 152),
          line('A second paragraph after a gap.', 100, 220),
        ]),
      ]),
    ]);
    expect(result.markdown).toBe(
      'Body text that runs on and on over a long line with a hyphenated word inside it.\n\nA second paragraph after a gap.',
    );
  });

  const invoice = page([
    block([line('Invoice 2024-0042', 100, 100, 36)]),
    block([
      row(
        [
          ['Item', 100],
          ['Qty', 500],
          ['Price', 700],
        ],
        200,
      ),
      row(
        [
          ['Paper A4', 100],
          ['10', 500],
          ['4.50', 700],
        ],
        240,
      ),
      row(
        [
          ['Ink cartridge', 100],
          ['2', 500],
          ['31.00', 700],
        ],
        280,
      ),
    ]),
    block([line('Thank you for your business and see you again soon.', 100, 400)]),
  ]);

  it('reads rows of short aligned cells as a table: inline Markdown by default', () => {
    const [result] = build([invoice]);
    expect(result.markdown).toBe(
      [
        '## Invoice 2024-0042',
        '| Item | Qty | Price |\n| --- | --- | --- |\n| Paper A4 | 10 | 4.50 |\n| Ink cartridge | 2 | 31.00 |',
        'Thank you for your business and see you again soon.',
      ].join('\n\n'),
    );
    expect(result.tables).toEqual([]);
    expect(result.blocks!.map((b) => b.type)).toEqual(['title', 'table', 'text']);
    expect(result.blocks![1]).toMatchObject({ top_left_x: 100, top_left_y: 200, bottom_right_y: 300 });
  });

  it('puts tables apart as Markdown or HTML with table_format, linked from the markdown like Mistral does', () => {
    const [markdown] = build([invoice], { tableFormat: 'markdown' });
    expect(markdown.markdown).toContain('\n\n[tbl-0.md](tbl-0.md)\n\n');
    expect(markdown.tables).toEqual([
      {
        id: 'tbl-0.md',
        format: 'markdown',
        content: '| Item | Qty | Price |\n| --- | --- | --- |\n| Paper A4 | 10 | 4.50 |\n| Ink cartridge | 2 | 31.00 |',
      },
    ]);
    const [html] = build([invoice], { tableFormat: 'html', includeBlocks: true });
    expect(html.markdown).toContain('[tbl-0.html](tbl-0.html)');
    expect(html.tables[0]).toEqual({
      id: 'tbl-0.html',
      format: 'html',
      content:
        '<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr><tr><td>Paper A4</td><td>10</td><td>4.50</td></tr><tr><td>Ink cartridge</td><td>2</td><td>31.00</td></tr></table>',
    });
    expect(html.blocks![1]).toMatchObject({ type: 'table', table_id: 'tbl-0.html' });
  });

  it('keeps two columns of prose as text, not as a two-column table', () => {
    const lines = [0, 1, 2, 3].map((i) =>
      row(
        [
          [`left column words number ${i} of the running text`, 60],
          [`right column words number ${i} of the other text`, 540],
        ],
        200 + i * 26,
      ),
    );
    const [result] = build([page([block(lines)])]);
    expect(result.tables).toEqual([]);
    expect(result.markdown).not.toContain('|');
  });

  const withBands = (index: number) =>
    page(
      [
        block([line('ACME Quarterly Letter', 100, 40, 16)]),
        block([line(`Body of page ${index + 1} with the actual content of the letter.`, 100, 300)]),
        block([line(`Page ${index + 1} of 2`, 450, 1340, 16)]),
      ],
      index,
    );

  it('finds running headers and footers by position, and keeps them in the markdown unless extracted', () => {
    const pages = [withBands(0), withBands(1)];
    const kept = build(pages);
    expect(kept[0].markdown).toBe(
      'ACME Quarterly Letter\n\nBody of page 1 with the actual content of the letter.\n\nPage 1 of 2',
    );
    expect(kept[0].blocks!.map((b) => b.type)).toEqual(['header', 'text', 'footer']);
    expect(kept[0]).toMatchObject({ header: null, footer: null });

    const apart = build(pages, { extractHeader: true, extractFooter: true });
    expect(apart[1]).toMatchObject({
      markdown: 'Body of page 2 with the actual content of the letter.',
      header: 'ACME Quarterly Letter',
      footer: 'Page 2 of 2',
    });
  });

  it('keeps the first line of a column that starts in the top tenth in its paragraph, even when it is short of the body height', () => {
    // A scan with a narrow margin: the column starts at y = 100 (the band ends at 140); its first line has no descenders.
    const column = block([
      line('Guarendi’s book shows that tradi-', 100, 100, 16),
      line('tional values, rooted in the bedrock', 100, 126),
      line('of mutual trust, truth and love.', 100, 152),
      line('And in this setting, fathers bring', 100, 178),
    ]);
    const [result] = build([page([column, block([line('Another paragraph further down the page.', 100, 400)])])], {
      extractHeader: true,
    });
    expect(result.header).toBeNull();
    expect(result.markdown.startsWith('Guarendi’s book shows that traditional values, rooted in the bedrock')).toBe(
      true,
    );
  });

  it('leaves a large line at the top of a single page in the content', () => {
    const [result] = build(
      [
        page([
          block([line('Big Title At The Top', 100, 40, 40)]),
          block([line('Then some body text below it.', 100, 300)]),
        ]),
      ],
      { extractHeader: true },
    );
    expect(result.header).toBeNull();
    expect(result.markdown).toBe('# Big Title At The Top\n\nThen some body text below it.');
  });

  it('links figures from the markdown where they sit, as image blocks with their ids', () => {
    const figure: BoxCoordinates = [100, 350, 700, 800];
    const extras = [{ dpi: 150, figures: [{ id: 'img-0.jpeg', bbox: figure }] }];
    const [result] = build(
      [
        page([
          block([line('Above the photo.', 100, 300)]),
          block([line('Figure 1: the new office', 100, 820)]),
          block([line('Below the caption.', 100, 900)]),
        ]),
      ],
      {},
      extras,
    );
    expect(result.markdown).toBe(
      'Above the photo.\n\n![img-0.jpeg](img-0.jpeg)\n\nFigure 1: the new office\n\nBelow the caption.',
    );
    expect(result.images).toEqual([
      { id: 'img-0.jpeg', top_left_x: 100, top_left_y: 350, bottom_right_x: 700, bottom_right_y: 800 },
    ]);
    expect(result.blocks!.map((b) => b.type)).toEqual(['text', 'image', 'caption', 'text']);
    expect(result.blocks![1]).toMatchObject({ image_id: 'img-0.jpeg', content: '' });
    expect(result.dimensions).toEqual({ dpi: 150, width: 1000, height: 1400 });
  });

  it('links each figure where it sits to its own id and box when figures sit in two columns', () => {
    // Figures come sorted top to bottom (the right column's first): the left column's lower figure is read first.
    const left: BoxCoordinates = [100, 600, 450, 900];
    const right: BoxCoordinates = [550, 300, 900, 500];
    const extras = [
      {
        dpi: 150,
        figures: [
          { id: 'img-0.jpeg', bbox: right },
          { id: 'img-1.jpeg', bbox: left },
        ],
      },
    ];
    const columns = page([
      block([line('Left top.', 100, 200)]),
      block([line('Left bottom.', 100, 1000)]),
      block([line('Right top.', 550, 200)]),
      block([line('Right bottom.', 550, 1000)]),
    ]);
    const [result] = build([columns], {}, extras);
    expect(result.markdown).toBe(
      'Left top.\n\n![img-1.jpeg](img-1.jpeg)\n\nLeft bottom.\n\nRight top.\n\n![img-0.jpeg](img-0.jpeg)\n\nRight bottom.',
    );
    const images = result.blocks!.filter((b) => b.type === 'image');
    expect(images.map((b) => [b.image_id, b.top_left_x, b.top_left_y])).toEqual([
      ['img-1.jpeg', 100, 600],
      ['img-0.jpeg', 550, 300],
    ]);
    expect(result.images.map((image) => [image.id, image.top_left_x])).toEqual([
      ['img-0.jpeg', 550],
      ['img-1.jpeg', 100],
    ]);
  });

  it('keeps confident words of a line wrapped around a photo’s edge, inside its box, in the text', () => {
    const extras = [{ dpi: 72, figures: [{ id: 'img-0.jpeg', bbox: [100, 350, 420, 800] as BoxCoordinates }] }];
    const wrapped = page([
      block([line('Above the photo.', 100, 300)]),
      block([line('for fatherhood and the family.', 400, 500)]),
      block([line('Below it.', 100, 900)]),
    ]);
    const [result] = build([wrapped], {}, extras);
    expect(result.markdown).toBe(
      'Above the photo.\n\n![img-0.jpeg](img-0.jpeg)\n\nfor fatherhood and the family.\n\nBelow it.',
    );
  });

  it('leaves words the engine read inside a figure out of the text: they belong to the picture', () => {
    const extras = [{ dpi: 72, figures: [{ id: 'img-0.jpeg', bbox: [100, 350, 700, 800] as BoxCoordinates }] }];
    const [result] = build(
      [
        page([
          block([line('Above the photo.', 100, 300)]),
          block([line('ra PE oc', 300, 500, 12, 0.2)]),
          block([line('Below it.', 100, 900)]),
        ]),
      ],
      {},
      extras,
    );
    expect(result.markdown).toBe('Above the photo.\n\n![img-0.jpeg](img-0.jpeg)\n\nBelow it.');
  });

  it('makes no table of two lines whose wide word gaps fall in different places (justified prose beside a photo)', () => {
    const [result] = build([
      page([
        block([
          row(
            [
              ['way of', 20],
              ['shaking a', 400],
              ['fist at', 800],
            ],
            300,
          ),
          row(
            [
              ['the', 210],
              ['city historian', 600],
            ],
            326,
          ),
        ]),
      ]),
    ]);
    expect(result.blocks!.map((b) => b.type)).not.toContain('table');
    expect(result.markdown).not.toContain('|');
  });

  it('takes the short text right below a figure, within its width, as its caption, placed right after it', () => {
    const extras = [{ dpi: 200, figures: [{ id: 'img-0.jpeg', bbox: [300, 200, 700, 600] as BoxCoordinates }] }];
    const [result] = build(
      [
        page([
          block([line('Text in the left', 20, 200), line('column beside it.', 20, 226)]),
          block([line('The old harbour at dawn,', 380, 620), line('before the boats go out.', 390, 646)]),
          block([line('A later paragraph far below the photo starts here.', 20, 900)]),
        ]),
      ],
      {},
      extras,
    );
    expect(result.blocks!.map((b) => b.type)).toEqual(['text', 'image', 'caption', 'text']);
    expect(result.blocks![2].content).toBe('The old harbour at dawn, before the boats go out.');
  });

  it('scores confidence by page, by word with offsets into the markdown, and by block', () => {
    const low = page([
      block([line('Clear words here', 100, 100, 20, 0.9)]),
      block([line('smudged', 100, 200, 20, 0.3)]),
    ]);
    const [byPage] = build([low], { confidenceGranularity: 'page', includeBlocks: false });
    expect(byPage.confidence_scores).toEqual({
      average_page_confidence_score: 0.75,
      minimum_page_confidence_score: 0.3,
    });
    expect(byPage).not.toHaveProperty('blocks');

    const [byWord] = build([low], { confidenceGranularity: 'word' });
    const words = byWord.confidence_scores!.word_confidence_scores!;
    expect(words.map((w) => w.text)).toEqual(['Clear', 'words', 'here', 'smudged']);
    for (const word of words)
      expect(byWord.markdown.slice(word.start_index, word.start_index + word.text.length)).toBe(word.text);
    expect(words[3].confidence).toBe(0.3);

    const [byBlock] = build([low], { confidenceGranularity: 'block' });
    expect(byBlock.blocks![1].confidence_scores).toEqual({
      average_content_confidence_score: 0.3,
      minimum_content_confidence_score: 0.3,
      block_type_confidence_score: null,
    });
  });

  it('keeps the text of a page that came without layout (an upstream that answers in Markdown) as its markdown', () => {
    const [result] = build([{ index: 0, width: 0, height: 0, text: '# Title\n\nBody', blocks: [], source: 'ocr' }]);
    expect(result).toMatchObject({ markdown: '# Title\n\nBody', dimensions: null, blocks: [] });
  });
});

describe('figure regions on a page image', () => {
  function canvas(width: number, height: number) {
    const data = new Uint8Array(width * height).fill(250);
    const fill = (box: BoxCoordinates, value: (x: number, y: number) => number) => {
      for (let y = box[1]; y < box[3]; y++) for (let x = box[0]; x < box[2]; x++) data[y * width + x] = value(x, y);
    };
    return { image: { width, height, data }, fill };
  }

  it('finds a photo-like area with no words, and not the text lines', () => {
    const { image, fill } = canvas(800, 1000);
    const words: BoxCoordinates[] = [];
    for (let y = 60; y < 300; y += 30) {
      fill([60, y, 700, y + 14], (x) => (x % 7 < 3 ? 20 : 250));
      words.push([60, y, 700, y + 14]);
    }
    fill([200, 400, 600, 700], (x, y) => 60 + ((x * 7 + y * 13) % 120));
    const figures = findFigures(image, words, 60);
    expect(figures).toHaveLength(1);
    const [x1, y1, x2, y2] = figures[0];
    expect(x1).toBeGreaterThanOrEqual(190);
    expect(x1).toBeLessThanOrEqual(200);
    expect(y1).toBeGreaterThanOrEqual(390);
    expect(x2).toBeGreaterThanOrEqual(600);
    expect(x2).toBeLessThanOrEqual(612);
    expect(y2).toBeLessThanOrEqual(712);
  });

  it('finds a photo that runs into the dark margins of a scan, and not the margins themselves', () => {
    const { image, fill } = canvas(800, 1000);
    // The scanner's black margins: along the bottom and the right edge.
    fill([0, 900, 800, 1000], () => 10);
    fill([780, 0, 800, 1000], () => 10);
    // A photo at the left edge that reaches down into the bottom margin.
    fill([0, 500, 300, 900], (x, y) => 60 + ((x * 7 + y * 13) % 120));
    const figures = findFigures(image, [], 60);
    expect(figures).toHaveLength(1);
    const [x1, y1, x2, y2] = figures[0];
    expect(x1).toBe(0);
    expect(y1).toBeGreaterThanOrEqual(490);
    expect(x2).toBeGreaterThanOrEqual(300);
    expect(x2).toBeLessThanOrEqual(312);
    expect(y2).toBeLessThanOrEqual(912);
    // Margins alone are no figure.
    const margins = canvas(800, 1000);
    margins.fill([0, 900, 800, 1000], () => 10);
    margins.fill([780, 0, 800, 1000], () => 10);
    expect(findFigures(margins.image, [], 60)).toEqual([]);
  });

  it('ignores a thin rule, a small mark and a blank page', () => {
    const { image, fill } = canvas(800, 1000);
    fill([50, 500, 750, 503], () => 0);
    fill([50, 50, 70, 70], () => 0);
    expect(findFigures(image, [], 60)).toEqual([]);
    expect(findFigures(canvas(800, 1000).image, [], 60)).toEqual([]);
  });
});

describe('tables: drawn grids and tables running over pages', () => {
  const extras = (count: number): PageExtras[] => Array.from({ length: count }, () => ({ figures: [], dpi: 72 }));
  const options = { ...OPTIONS, tableFormat: 'markdown' as const, includeBlocks: true };
  const tableRows = (first: number, count: number, y: number) =>
    Array.from({ length: count }, (_, at) =>
      row(
        [
          [`${first + at}`, 100],
          [`${300 + first + at}.5`, 300],
          [`${at % 3}`, 500],
        ],
        y + at * 30,
      ),
    );
  const header = (y: number) =>
    row(
      [
        ['Year', 100],
        ['Mean', 300],
        ['Rank', 500],
      ],
      y,
    );

  it('a part on the next page that repeats the header continues the table without a second header', () => {
    const first = page([
      block([line('Yearly means', 100, 100, 30)]),
      block([header(1000), ...tableRows(1990, 10, 1030)]),
    ]);
    const second = page([block([header(100), ...tableRows(2000, 5, 130)])], 1);
    const [one, two] = buildMistralPages([first, second], extras(2), options);
    expect(one.tables.map((table) => table.id)).toEqual(['tbl-0.md']);
    expect(two.tables[0]).toMatchObject({ id: 'tbl-1.md', continues_table_id: 'tbl-0.md' });
    expect(two.tables[0].content.split('\n')).toHaveLength(7);
    expect(two.tables[0].content).toMatch(/^\| Year \| Mean \| Rank \|\n\| --- \| --- \| --- \|\n\| 2000 \|/);
    const cells = two.blocks!.find((block) => block.type === 'table')!.cells!;
    expect(cells.filter((cell) => cell.row === 0).map((cell) => cell.text)).toEqual(['Year', 'Mean', 'Rank']);
  });

  it('a table with other columns on the next page is a table of its own', () => {
    const first = page([block([header(1000), ...tableRows(1990, 10, 1030)])]);
    const other = row(
      [
        ['Code', 100],
        ['Name', 400],
      ],
      100,
    );
    const second = page(
      [
        block([
          other,
          ...['AD Andorra', 'AE Emirates', 'AF Afghanistan'].map((text, at) =>
            row(
              [
                [text.split(' ')[0], 100],
                [text.split(' ')[1], 400],
              ],
              130 + at * 30,
            ),
          ),
        ]),
      ],
      1,
    );
    const [, two] = buildMistralPages([first, second], extras(2), options);
    expect(two.tables[0].continues_table_id).toBeUndefined();
    expect(two.tables[0].content).toMatch(/^\| Code \| Name \|/);
  });

  it('a drawn grid is a table cell by cell, a row without a divider one spanning cell', () => {
    // Rules at x 90, 290, 490, 690 and y 90, 130, 170, 210; the last row has no divider at x 290 (a merged cell).
    const rows = [
      row(
        [
          ['Name', 100],
          ['Kind', 300],
          ['Size', 500],
        ],
        100,
      ),
      row(
        [
          ['alpha', 100],
          ['file', 300],
          ['12', 500],
        ],
        140,
      ),
      row(
        [
          ['beta', 100],
          ['merged', 200],
          ['7', 500],
        ],
        180,
      ),
    ];
    const grid = page([block(rows)]);
    grid.rules = {
      horizontal: [90, 130, 170, 210].map((at) => ({ at, from: 90, to: 690 })),
      vertical: [
        { at: 90, from: 90, to: 210 },
        { at: 290, from: 90, to: 170 },
        { at: 490, from: 90, to: 210 },
        { at: 690, from: 90, to: 210 },
      ],
    };
    const [result] = buildMistralPages([grid], extras(1), options);
    const table = result.blocks!.find((block) => block.type === 'table')!;
    expect(table.table_ruling).toBe('ruled');
    expect(table.cells!.map((cell) => [cell.row, cell.col, cell.col_span, cell.text])).toEqual([
      [0, 0, 1, 'Name'],
      [0, 1, 1, 'Kind'],
      [0, 2, 1, 'Size'],
      [1, 0, 1, 'alpha'],
      [1, 1, 1, 'file'],
      [1, 2, 1, '12'],
      [2, 0, 2, 'beta merged'],
      [2, 2, 1, '7'],
    ]);
    expect(table.cells![0]).toMatchObject({ top_left_x: 90, top_left_y: 90, bottom_right_x: 290, bottom_right_y: 130 });
  });

  it('columns of prose in a ruled frame are no table', () => {
    const prose = 'the committee met on Tuesday and agreed to publish the figures';
    const lines = Array.from({ length: 6 }, (_, at) => [
      line(prose, 100, 120 + at * 30),
      line(prose, 720, 120 + at * 30),
    ]);
    const columns = page([block(lines.map(([left]) => left)), block(lines.map(([, right]) => right))]);
    columns.rules = {
      horizontal: [90, 200, 300].map((at) => ({ at, from: 90, to: 1400 })),
      vertical: [90, 700, 1400].map((at) => ({ at, from: 90, to: 300 })),
    };
    columns.width = 1500;
    const [result] = buildMistralPages([columns], extras(1), options);
    expect(result.blocks!.some((block) => block.type === 'table')).toBe(false);
  });
});
