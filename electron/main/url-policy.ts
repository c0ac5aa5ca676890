/** What the console window may do with a URL it tries to open or navigate to. */
export type NavigationDecision = 'allow' | 'open-external' | 'deny';

const CONSOLE_PATH = '/ui';

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The console's own pages: the gateway's origin, under /ui/. */
export function isConsoleUrl(url: string, gatewayUrl: string): boolean {
  const target = parse(url);
  const gateway = parse(gatewayUrl);
  if (!target || !gateway || target.origin !== gateway.origin) return false;
  return target.pathname === CONSOLE_PATH || target.pathname.startsWith(`${CONSOLE_PATH}/`);
}

/** http(s) URLs only: `file:`, `javascript:`, custom schemes and the like never leave the app. */
export function isWebUrl(url: string): boolean {
  const target = parse(url);
  return target !== null && (target.protocol === 'http:' || target.protocol === 'https:') && target.hostname !== '';
}

/**
 * Navigation inside the window stays on the console; any other web link goes to the system
 * browser; everything else is refused.
 */
export function decideNavigation(url: string, gatewayUrl: string): NavigationDecision {
  if (isConsoleUrl(url, gatewayUrl)) return 'allow';
  if (isWebUrl(url)) return 'open-external';
  return 'deny';
}

/**
 * Permissions the console may have: the microphone (for the transcription page) and clipboard writes
 * (copy buttons), and only for pages of the gateway's origin. Camera, screen, location and the rest: never.
 */
export function decidePermission(
  permission: string,
  requestingUrl: string | undefined,
  mediaTypes: string[] | undefined,
  gatewayUrl: string,
): boolean {
  const requester = requestingUrl ? parse(requestingUrl) : null;
  const gateway = parse(gatewayUrl);
  if (!requester || !gateway || requester.origin !== gateway.origin) return false;
  if (permission === 'media')
    return (mediaTypes ?? []).length > 0 && (mediaTypes ?? []).every((type) => type === 'audio');
  return permission === 'clipboard-sanitized-write';
}
