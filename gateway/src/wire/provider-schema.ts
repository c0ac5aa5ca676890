import { Type } from '@sinclair/typebox';

/** A provider's upstream timeouts in milliseconds, as the config file's `providers` list and the Settings API write them. */
export const ProviderTimeoutsSchema = Type.Object(
  {
    connect: Type.Optional(Type.Integer({ minimum: 1 })),
    first_byte: Type.Optional(Type.Integer({ minimum: 1 })),
    idle: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
