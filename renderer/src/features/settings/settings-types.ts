import type {
  ProviderBody,
  ProviderCheck,
  ProviderSetting,
  RouteBody,
  RouteSetting,
  ServerChange,
  ServerSetting,
  SettingsResponse,
} from '../../../../gateway/src/wire/settings-schemas';

/** GET /settings and the bodies the console sends, from the Settings API's schemas. */
export type Settings = SettingsResponse;
export type { ProviderCheck, ProviderSetting, RouteSetting, ServerSetting };
export type ProviderInput = ProviderBody;
export type RouteInput = RouteBody;
export type ServerSettingsChange = ServerChange;
