import { Type } from '@sinclair/typebox';
import { ProviderId } from '../../wire/settings-schemas.js';

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export const ProviderParams = Type.Object({ id: ProviderId });
export const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
