import { Type, type Static } from '@sinclair/typebox';

/** One cell of a recognised table with its box in page-image pixels: an extension of Mistral's table blocks, and SPEC's page tables. */
export const OcrTableCellSchema = Type.Object({
  row: Type.Integer({ minimum: 0, description: "The cell's row in the table's content (0: the header row)." }),
  col: Type.Integer({ minimum: 0, description: "The cell's first column (0-based)." }),
  col_span: Type.Integer({
    minimum: 1,
    description: 'How many columns the cell spans (a merged cell of a ruled table).',
  }),
  text: Type.String(),
  top_left_x: Type.Integer(),
  top_left_y: Type.Integer(),
  bottom_right_x: Type.Integer(),
  bottom_right_y: Type.Integer(),
});

export const TableRulingSchema = Type.Union([Type.Literal('ruled'), Type.Literal('unruled')], {
  description: 'Whether the table was found by its drawn grid or by its columns lining up.',
});

/** A table on a page in SPEC's form (`include_tables`): its box, cell texts row by row, and cells with boxes. */
export const SpecOcrTableSchema = Type.Object({
  top_left_x: Type.Integer(),
  top_left_y: Type.Integer(),
  bottom_right_x: Type.Integer(),
  bottom_right_y: Type.Integer(),
  ruling: TableRulingSchema,
  rows: Type.Array(Type.Array(Type.String()), { description: 'Cell texts row by row; row 0 is the header.' }),
  markdown: Type.String({
    description: "The table as a GitHub-flavoured Markdown table, as the page markdown of Mistral's form has it.",
  }),
  cells: Type.Array(OcrTableCellSchema),
  continues_previous_page: Type.Boolean({
    description:
      "The table continues the previous page's last table (same columns); row 0 is that table's header row, repeated when this page lacks it (it then has no cells).",
  }),
});

export type OcrTableCell = Static<typeof OcrTableCellSchema>;
export type SpecOcrTable = Static<typeof SpecOcrTableSchema>;
