/** How the console names itself in X-Switchyard-Client, which the request log records per request. */

/** The console's own reads and polling (model lists, account, files, settings): the request log hides them unless asked. */
export const CONSOLE_CLIENT = 'console';
/** What a user does in the console (a playground request, an upload, a batch): real traffic, shown and counted like any client's. */
export const PLAYGROUND_CLIENT = 'console-playground';
/** A logged request sent again (Replay, Compare): the gateway tags it so in the request log. */
export const REPLAY_CLIENT = 'replay';

/** The X-Switchyard-Client tag of a console call: any method but GET on /v1/ is something the user did. */
export function clientTag(method: string | undefined, path: string): string {
  return (method ?? 'GET').toUpperCase() !== 'GET' && path.startsWith('/v1/') ? PLAYGROUND_CLIENT : CONSOLE_CLIENT;
}
