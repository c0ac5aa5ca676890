import { Type, type Static } from '@sinclair/typebox';

export const BatchObject = Type.Object({
  id: Type.String(),
  object: Type.Literal('batch'),
  endpoint: Type.String(),
  input_file_id: Type.String(),
  completion_window: Type.String(),
  status: Type.Union(
    (
      ['validating', 'failed', 'in_progress', 'finalizing', 'completed', 'expired', 'cancelling', 'cancelled'] as const
    ).map((status) => Type.Literal(status)),
    {
      description:
        'validating | failed | in_progress | finalizing | completed | expired | cancelling (the line in flight is stopped and the results are written) | cancelled',
    },
  ),
  output_file_id: Type.Union([Type.String(), Type.Null()]),
  error_file_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.Integer(),
  in_progress_at: Type.Union([Type.Integer(), Type.Null()]),
  completed_at: Type.Union([Type.Integer(), Type.Null()]),
  failed_at: Type.Union([Type.Integer(), Type.Null()]),
  cancelled_at: Type.Union([Type.Integer(), Type.Null()]),
  expires_at: Type.Integer(),
  request_counts: Type.Object({ total: Type.Integer(), completed: Type.Integer(), failed: Type.Integer() }),
  metadata: Type.Record(Type.String(), Type.String()),
  errors: Type.Object({
    object: Type.Literal('list'),
    data: Type.Array(Type.Object({ line: Type.Integer(), message: Type.String() })),
  }),
});
export type Batch = Static<typeof BatchObject>;
