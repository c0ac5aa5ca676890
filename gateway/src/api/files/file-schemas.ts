import { Type, type Static } from '@sinclair/typebox';

export const FileObject = Type.Object({
  id: Type.String(),
  object: Type.Literal('file'),
  bytes: Type.Integer(),
  created_at: Type.Integer(),
  filename: Type.String(),
  purpose: Type.String(),
  mime_type: Type.String(),
  // Mistral's file fields.
  sample_type: Type.String({ description: 'pretrain | instruct | batch_request | batch_result | batch_error' }),
  source: Type.String({ description: 'upload' }),
  deleted: Type.Boolean(),
  num_lines: Type.Union([Type.Integer(), Type.Null()]),
  mimetype: Type.String(),
  signature: Type.Union([Type.String(), Type.Null()]),
});
export type StoredFile = Static<typeof FileObject>;
