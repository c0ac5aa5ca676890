interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

export interface ProfileShare {
  name: string;
  percent: number;
}

/** Where a frame's code lives: an npm package, a room of the gateway, a Node internal, or the engine itself. */
function placeOf(url: string, functionName: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const room = /dist\/gateway\/src\/([^/]+)\/(?:([^/]+)\/)?/.exec(url);
  if (room) return `gateway ${room[1]}${room[2] ? `/${room[2]}` : ''}`;
  if (url.startsWith('node:'))
    return url
      .replace(/^node:internal\//, 'node:')
      .split('/')
      .slice(0, 2)
      .join('/');
  return `(${functionName || 'native'})`;
}

/**
 * Self time of a V8 CPU profile grouped by where the code lives and by function, as shares of the
 * busy time (idle time left out).
 */
export function summariseCpuProfile(
  profile: CpuProfile,
  top = 12,
): { byPlace: ProfileShare[]; byFunction: ProfileShare[] } {
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const count = hits.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (count === 0 || functionName === '(idle)') continue;
    busy += count;
    const place = placeOf(url, functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + count);
    const where = url ? `${url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${lineNumber + 1}` : '';
    const label = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(label, (byFunction.get(label) ?? 0) + count);
  }
  const shares = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, count]) => ({ name, percent: (100 * count) / busy }));
  return { byPlace: shares(byPlace), byFunction: shares(byFunction) };
}
