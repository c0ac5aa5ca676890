import type {
  ProviderBodyInput,
  ProviderCheckView,
  ProviderSettingView,
  RouteBodyInput,
  RouteSettingView,
  ServerChangeBody,
  ServerSettingView,
  SettingsView,
} from '../../../../gateway/src/api/settings/settings-schemas';

/** GET /settings, from the route's schema. */
export type Settings = SettingsView;
export type ProviderSetting = ProviderSettingView;
export type RouteSetting = RouteSettingView;
export type ServerSetting = ServerSettingView;
export type ProviderCheck = ProviderCheckView;
export type ProviderInput = ProviderBodyInput;
export type RouteInput = RouteBodyInput;
export type ServerSettingsChange = ServerChangeBody;
